from cuda_tidy import main

main()
