#ifndef VIEWFINDER_CTURBOJPEG_SHIM_H
#define VIEWFINDER_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
