#include "CViewfinderUSB.h"

#include <errno.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

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

int cusb_open_uevent_socket(void) {
    int descriptor = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
    if (descriptor < 0) {
        return -errno;
    }
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;
    if (bind(descriptor, (struct sockaddr *)&address, sizeof address) < 0) {
        int error = errno;
        close(descriptor);
        return -error;
    }
    return descriptor;
}

long cusb_receive_uevent(int descriptor, void *buffer, unsigned long size) {
    struct sockaddr_nl sender;
    socklen_t length = sizeof sender;
    memset(&sender, 0, sizeof sender);
    ssize_t received = recvfrom(descriptor, buffer, size, 0, (struct sockaddr *)&sender, &length);
    if (received < 0) {
        return -errno;
    }
    // Only the kernel (port 0) speaks for devices; anything else on the group is ignored.
    return sender.nl_pid == 0 ? received : 0;
}
