// cuda-tidy real-code stand-in (bench/real-code/corpora/stubs/torch): the few
// CPython names a torch extension's registration code uses (declarations only).
#pragma once
typedef struct _object { long ob_refcnt; } PyObject;
typedef struct PyModuleDef_Base { int unused; } PyModuleDef_Base;
#define PyModuleDef_HEAD_INIT {0}
typedef struct PyMethodDef PyMethodDef;
typedef struct PyModuleDef {
  PyModuleDef_Base m_base;
  const char* m_name;
  const char* m_doc;
  long m_size;
  PyMethodDef* m_methods;
} PyModuleDef;
#define PyMODINIT_FUNC extern "C" PyObject*
extern "C" PyObject* PyModule_Create(PyModuleDef*);
