#ifndef VIEWFINDER_CVIEWFINDERSYSTEM_H
#define VIEWFINDER_CVIEWFINDERSYSTEM_H

struct sockaddr;

// The calls Swift cannot see without _GNU_SOURCE, for ViewfinderSystem. Each returns what the C call returns and
// leaves errno as the call set it.

/// Names the calling thread with pthread_setname_np(3); names longer than 15 bytes are cut.
void viewfinder_set_thread_name(const char *name);

/// pipe2(2): a pipe whose ends get `flags` (O_CLOEXEC, O_NONBLOCK) atomically.
int viewfinder_pipe2(int descriptors[2], int flags);

/// accept4(2): accepts a connection whose descriptor gets `flags` (SOCK_CLOEXEC, SOCK_NONBLOCK) atomically.
int viewfinder_accept4(int descriptor, struct sockaddr *address, unsigned int *length, int flags);

/// Catches SIGINT and SIGTERM from now on, in every thread, and returns a descriptor that becomes readable (one byte,
/// the signal's number, per signal) when one arrives; -1 when no pipe could be made. The first call installs the
/// handlers; later calls return the same descriptor. A signal handler only writes to a pipe, so it is safe whichever
/// thread the kernel picks to run it.
int viewfinder_interrupt_descriptor(void);

/// What the kernel says of the system clock (ntp_adjtime(2) in read-only mode), as the time daemon keeps it.
struct viewfinder_clock_state {
    /// Whether the clock is synchronised: STA_UNSYNC clear and no TIME_ERROR.
    int synchronized;
    /// The offset to the reference the daemon last gave, in nanoseconds.
    long long offset_nanoseconds;
    /// The estimated and maximum errors, in microseconds.
    long long estimated_error_microseconds;
    long long maximum_error_microseconds;
};

/// Reads the kernel's clock state without changing it; returns what ntp_adjtime returns (-1 on failure).
int viewfinder_clock_state(struct viewfinder_clock_state *state);

#endif
