#include "CV4L2.h"

#include <errno.h>
#include <sys/mman.h>

const unsigned long cv4l2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long cv4l2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long cv4l2_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long cv4l2_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long cv4l2_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
const unsigned long cv4l2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long cv4l2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long cv4l2_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long cv4l2_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long cv4l2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long cv4l2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long cv4l2_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long cv4l2_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long cv4l2_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long cv4l2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
const unsigned long cv4l2_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
const unsigned long cv4l2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
const unsigned long cv4l2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
const unsigned long cv4l2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long cv4l2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
const unsigned long cv4l2_VIDIOC_SUBSCRIBE_EVENT = VIDIOC_SUBSCRIBE_EVENT;
const unsigned long cv4l2_VIDIOC_DQEVENT = VIDIOC_DQEVENT;
const unsigned long cv4l2_VIDIOC_G_INPUT = VIDIOC_G_INPUT;
const unsigned long cv4l2_VIDIOC_S_INPUT = VIDIOC_S_INPUT;
const unsigned long cv4l2_VIDIOC_ENUMINPUT = VIDIOC_ENUMINPUT;
const unsigned long cv4l2_VIDIOC_ENUMOUTPUT = VIDIOC_ENUMOUTPUT;
const unsigned long cv4l2_VIDIOC_S_OUTPUT = VIDIOC_S_OUTPUT;

const uint32_t cv4l2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t cv4l2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
const uint32_t cv4l2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
const uint32_t cv4l2_PIX_FMT_NV21 = V4L2_PIX_FMT_NV21;
const uint32_t cv4l2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
const uint32_t cv4l2_PIX_FMT_YVU420 = V4L2_PIX_FMT_YVU420;
const uint32_t cv4l2_PIX_FMT_NV16 = V4L2_PIX_FMT_NV16;
const uint32_t cv4l2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
const uint32_t cv4l2_PIX_FMT_BGR24 = V4L2_PIX_FMT_BGR24;
const uint32_t cv4l2_PIX_FMT_XRGB32 = V4L2_PIX_FMT_XRGB32;
const uint32_t cv4l2_PIX_FMT_ARGB32 = V4L2_PIX_FMT_ARGB32;
const uint32_t cv4l2_PIX_FMT_XBGR32 = V4L2_PIX_FMT_XBGR32;
const uint32_t cv4l2_PIX_FMT_ABGR32 = V4L2_PIX_FMT_ABGR32;
const uint32_t cv4l2_PIX_FMT_RGBA32 = V4L2_PIX_FMT_RGBA32;
const uint32_t cv4l2_PIX_FMT_BGRA32 = V4L2_PIX_FMT_BGRA32;
const uint32_t cv4l2_PIX_FMT_RGBX32 = V4L2_PIX_FMT_RGBX32;
const uint32_t cv4l2_PIX_FMT_BGRX32 = V4L2_PIX_FMT_BGRX32;
const uint32_t cv4l2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
const uint32_t cv4l2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t cv4l2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
const uint32_t cv4l2_PIX_FMT_H264 = V4L2_PIX_FMT_H264;

void *cv4l2_mmap(int fd, size_t length, int64_t offset, int *error) {
    void *address = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    if (address == MAP_FAILED) {
        *error = errno;
        return NULL;
    }
    *error = 0;
    return address;
}

const char *cv4l2_querymenu_name(const struct v4l2_querymenu *menu) {
    return (const char *)menu->name;
}

int64_t cv4l2_querymenu_value(const struct v4l2_querymenu *menu) {
    return menu->value;
}
