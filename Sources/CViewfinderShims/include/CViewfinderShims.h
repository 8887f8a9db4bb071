#ifndef VIEWFINDER_CVIEWFINDERSHIMS_H
#define VIEWFINDER_CVIEWFINDERSHIMS_H

/// Names the calling thread with pthread_setname_np(3), which Swift cannot see without _GNU_SOURCE; names longer than
/// 15 bytes are cut.
void viewfinder_set_thread_name(const char *name);

#endif
