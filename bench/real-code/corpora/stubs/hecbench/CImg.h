// cuda-tidy real-code stand-in, written from scratch: the few members of an
// image class that bm3d-cuda/main.cu names (no image is read or written).
#pragma once
namespace cimg_library {
template <class T> struct CImg {
  CImg() {}
  explicit CImg(const char *) {}
  CImg(unsigned, unsigned, unsigned, unsigned, const T &) {}
  T *data() { return 0; }
  int width() const { return 0; }
  int height() const { return 0; }
  CImg get_channels(int, int) const { return *this; }
  CImg get_channel(int) const { return *this; }
  CImg &RGBtoYCbCr() { return *this; }
  CImg &YCbCrtoRGB() { return *this; }
  const CImg &save(const char *) const { return *this; }
  template <class U> double PSNR(const CImg<U> &) const { return 0; }
};
}  // namespace cimg_library
