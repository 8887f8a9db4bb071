#include "CV4L2.h"

const unsigned long cv4l2_capability_size = sizeof(struct v4l2_capability);
