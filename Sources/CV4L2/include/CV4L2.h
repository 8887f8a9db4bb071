#ifndef VIEWFINDER_CV4L2_H
#define VIEWFINDER_CV4L2_H

#include <linux/videodev2.h>

/// The size of `struct v4l2_capability`, as the C compiler lays it out.
extern const unsigned long cv4l2_capability_size;

#endif
