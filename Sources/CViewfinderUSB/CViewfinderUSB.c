#include "CViewfinderUSB.h"

#include <string.h>
#include <sys/ioctl.h>

const unsigned long cusb_USBDEVFS_CONTROL = USBDEVFS_CONTROL;
const unsigned long cusb_USBDEVFS_SUBMITURB = USBDEVFS_SUBMITURB;
const unsigned long cusb_USBDEVFS_DISCARDURB = USBDEVFS_DISCARDURB;
const unsigned long cusb_USBDEVFS_REAPURBNDELAY = USBDEVFS_REAPURBNDELAY;
const unsigned long cusb_USBDEVFS_CLAIMINTERFACE = USBDEVFS_CLAIMINTERFACE;
const unsigned long cusb_USBDEVFS_RELEASEINTERFACE = USBDEVFS_RELEASEINTERFACE;
const unsigned long cusb_USBDEVFS_CLEAR_HALT = USBDEVFS_CLEAR_HALT;
const unsigned long cusb_USBDEVFS_GET_CAPABILITIES = USBDEVFS_GET_CAPABILITIES;
const unsigned long cusb_USBDEVFS_DISCONNECT_CLAIM = USBDEVFS_DISCONNECT_CLAIM;

const unsigned long cusb_FUNCTIONFS_CLEAR_HALT = FUNCTIONFS_CLEAR_HALT;
const unsigned long cusb_FUNCTIONFS_FIFO_FLUSH = FUNCTIONFS_FIFO_FLUSH;

void cusb_prepare_urb(struct usbdevfs_urb *urb, unsigned char type, unsigned char endpoint, void *buffer, int length,
                      unsigned int flags) {
    memset(urb, 0, sizeof *urb);
    urb->type = type;
    urb->endpoint = endpoint;
    urb->buffer = buffer;
    urb->buffer_length = length;
    urb->flags = flags;
}
