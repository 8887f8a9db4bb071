#ifndef VIEWFINDER_CUSB_H
#define VIEWFINDER_CUSB_H

// What Swift cannot import from <linux/usbdevice_fs.h> and <linux/usb/functionfs.h> on its own: the ioctl request
// codes (function-like macros) and the members of the URB's anonymous union; and the kernel's device-event socket,
// whose address structure is in <linux/netlink.h>.

#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <linux/usbdevice_fs.h>
#include <stdint.h>

// MARK: - usbdevfs (the host side, /dev/bus/usb/BBB/DDD)

extern const unsigned long cusb_USBDEVFS_CONTROL;
extern const unsigned long cusb_USBDEVFS_SUBMITURB;
extern const unsigned long cusb_USBDEVFS_DISCARDURB;
extern const unsigned long cusb_USBDEVFS_REAPURBNDELAY;
extern const unsigned long cusb_USBDEVFS_CLAIMINTERFACE;
extern const unsigned long cusb_USBDEVFS_RELEASEINTERFACE;
extern const unsigned long cusb_USBDEVFS_CLEAR_HALT;
extern const unsigned long cusb_USBDEVFS_GET_CAPABILITIES;
extern const unsigned long cusb_USBDEVFS_DISCONNECT_CLAIM;

/// Fills `urb` for a bulk or interrupt transfer of `length` bytes at `buffer` on `endpoint`.
void cusb_prepare_urb(struct usbdevfs_urb *urb, unsigned char type, unsigned char endpoint, void *buffer, int length,
                      unsigned int flags);

// MARK: - FunctionFS (the device side, a gadget function's ep0 and endpoint files)

extern const unsigned long cusb_FUNCTIONFS_CLEAR_HALT;
extern const unsigned long cusb_FUNCTIONFS_FIFO_FLUSH;

// MARK: - Kernel device events (a NETLINK_KOBJECT_UEVENT socket)

/// Opens a non-blocking, close-on-exec netlink socket that receives the kernel's device events; `-errno` on failure.
int cusb_open_uevent_socket(void);

/// Receives one event into `buffer`: its length, 0 for a message that did not come from the kernel (ignored), or
/// `-errno` (`-EAGAIN` when none waits, `-ENOBUFS` when events were lost to an overflow).
long cusb_receive_uevent(int descriptor, void *buffer, unsigned long size);

#endif
