#ifndef VIEWFINDER_CV4L2_H
#define VIEWFINDER_CV4L2_H

// What Swift cannot import from <linux/videodev2.h> on its own: the VIDIOC_* request codes and the v4l2_fourcc
// pixel-format codes (function-like macros), mmap's MAP_FAILED and the members of packed anonymous unions.

#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// MARK: - Request codes

extern const unsigned long cv4l2_VIDIOC_QUERYCAP;
extern const unsigned long cv4l2_VIDIOC_ENUM_FMT;
extern const unsigned long cv4l2_VIDIOC_G_FMT;
extern const unsigned long cv4l2_VIDIOC_S_FMT;
extern const unsigned long cv4l2_VIDIOC_TRY_FMT;
extern const unsigned long cv4l2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long cv4l2_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long cv4l2_VIDIOC_G_PARM;
extern const unsigned long cv4l2_VIDIOC_S_PARM;
extern const unsigned long cv4l2_VIDIOC_REQBUFS;
extern const unsigned long cv4l2_VIDIOC_QUERYBUF;
extern const unsigned long cv4l2_VIDIOC_QBUF;
extern const unsigned long cv4l2_VIDIOC_DQBUF;
extern const unsigned long cv4l2_VIDIOC_STREAMON;
extern const unsigned long cv4l2_VIDIOC_STREAMOFF;
extern const unsigned long cv4l2_VIDIOC_QUERYCTRL;
extern const unsigned long cv4l2_VIDIOC_QUERY_EXT_CTRL;
extern const unsigned long cv4l2_VIDIOC_QUERYMENU;
extern const unsigned long cv4l2_VIDIOC_G_CTRL;
extern const unsigned long cv4l2_VIDIOC_S_CTRL;
extern const unsigned long cv4l2_VIDIOC_SUBSCRIBE_EVENT;
extern const unsigned long cv4l2_VIDIOC_DQEVENT;
extern const unsigned long cv4l2_VIDIOC_G_INPUT;
extern const unsigned long cv4l2_VIDIOC_S_INPUT;
extern const unsigned long cv4l2_VIDIOC_ENUMINPUT;
extern const unsigned long cv4l2_VIDIOC_ENUMOUTPUT;
extern const unsigned long cv4l2_VIDIOC_S_OUTPUT;

// MARK: - Pixel formats (v4l2_fourcc)

extern const uint32_t cv4l2_PIX_FMT_YUYV;
extern const uint32_t cv4l2_PIX_FMT_UYVY;
extern const uint32_t cv4l2_PIX_FMT_NV12;
extern const uint32_t cv4l2_PIX_FMT_NV21;
extern const uint32_t cv4l2_PIX_FMT_YUV420;
extern const uint32_t cv4l2_PIX_FMT_YVU420;
extern const uint32_t cv4l2_PIX_FMT_NV16;
extern const uint32_t cv4l2_PIX_FMT_RGB24;
extern const uint32_t cv4l2_PIX_FMT_BGR24;
extern const uint32_t cv4l2_PIX_FMT_XRGB32;
extern const uint32_t cv4l2_PIX_FMT_ARGB32;
extern const uint32_t cv4l2_PIX_FMT_XBGR32;
extern const uint32_t cv4l2_PIX_FMT_ABGR32;
extern const uint32_t cv4l2_PIX_FMT_RGBA32;
extern const uint32_t cv4l2_PIX_FMT_BGRA32;
extern const uint32_t cv4l2_PIX_FMT_RGBX32;
extern const uint32_t cv4l2_PIX_FMT_BGRX32;
extern const uint32_t cv4l2_PIX_FMT_GREY;
extern const uint32_t cv4l2_PIX_FMT_MJPEG;
extern const uint32_t cv4l2_PIX_FMT_JPEG;
extern const uint32_t cv4l2_PIX_FMT_H264;

/// Builds a V4L2 four-character code, as the `v4l2_fourcc` macro does.
static inline uint32_t cv4l2_fourcc(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
    return v4l2_fourcc(a, b, c, d);
}

// MARK: - System calls

/// Maps `length` bytes of a device at `offset` for reading and writing, shared. Returns NULL and sets `*error` to
/// errno when mmap(2) fails (it reports MAP_FAILED, which Swift cannot import).
void *cv4l2_mmap(int fd, size_t length, int64_t offset, int *error);

// MARK: - Packed unions

/// The name of a `V4L2_CTRL_TYPE_MENU` entry (a member of a packed anonymous union).
const char *cv4l2_querymenu_name(const struct v4l2_querymenu *menu);

/// The value of a `V4L2_CTRL_TYPE_INTEGER_MENU` entry (a member of a packed anonymous union).
int64_t cv4l2_querymenu_value(const struct v4l2_querymenu *menu);

#endif
