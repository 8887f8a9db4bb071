#ifndef VIEWFINDER_CVIEWFINDERSHIMS_H
#define VIEWFINDER_CVIEWFINDERSHIMS_H

/// Names the calling thread with pthread_setname_np(3), which Swift cannot see without _GNU_SOURCE; names longer than
/// 15 bytes are cut.
void viewfinder_set_thread_name(const char *name);

/// Catches SIGINT and SIGTERM from now on, in every thread, and returns a descriptor that becomes readable (one byte,
/// the signal's number, per signal) when one arrives; -1 when no pipe could be made. The first call installs the
/// handlers; later calls return the same descriptor. A signal handler only writes to a pipe, so it is safe whichever
/// thread the kernel picks to run it.
int viewfinder_interrupt_descriptor(void);

#endif
