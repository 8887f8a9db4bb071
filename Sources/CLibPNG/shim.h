#ifndef VIEWFINDER_CLIBPNG_SHIM_H
#define VIEWFINDER_CLIBPNG_SHIM_H
#include <png.h>
#endif
