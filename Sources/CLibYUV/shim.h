#ifndef VIEWFINDER_CLIBYUV_SHIM_H
#define VIEWFINDER_CLIBYUV_SHIM_H
#include <libyuv.h>
#endif
