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

/// A netlink socket of `protocol` (NETLINK_GENERIC, say), close-on-exec and non-blocking, bound to an address the
/// kernel picks and connected to the kernel, so send(2) and recv(2) talk to it; -1 with errno on failure.
int viewfinder_netlink_connect(int protocol);

/// Catches SIGINT and SIGTERM from now on, in every thread, and returns a descriptor that becomes readable (one byte,
/// the signal's number, per signal) when one arrives; -1 when no pipe could be made. The first call installs the
/// handlers; later calls return the same descriptor. A signal handler only writes to a pipe, so it is safe whichever
/// thread the kernel picks to run it.
int viewfinder_interrupt_descriptor(void);

/// One step of a cleanup: what it does with `path`. Each step is tried, and its failure ignored.
enum viewfinder_cleanup_kind {
    /// Writes `value` to the file at `path`, such as a configfs attribute.
    VIEWFINDER_CLEANUP_WRITE = 1,
    /// Unmounts the file system at `path`, lazily (MNT_DETACH).
    VIEWFINDER_CLEANUP_UNMOUNT = 2,
    /// Removes the directory `path`.
    VIEWFINDER_CLEANUP_REMOVE_DIRECTORY = 3,
    /// Removes the file or symbolic link `path`.
    VIEWFINDER_CLEANUP_REMOVE_FILE = 4,
};

/// A step of a cleanup: its kind, its path, and for a write the bytes written (a C string).
struct viewfinder_cleanup_step {
    int kind;
    const char *path;
    const char *value;
};

/// Runs `count` cleanup steps in order, in this process.
void viewfinder_run_cleanup(const struct viewfinder_cleanup_step *steps, int count);

/// Forks a keeper that holds this process's privileges for a cleanup after the process has given them up, such as
/// removing a USB gadget that only root may remove. The keeper keeps none of the process's descriptors but `control`
/// and ignores SIGINT, SIGTERM, SIGHUP and SIGPIPE; it runs the `early` steps for each byte it reads from `control`,
/// and the `last` steps once `control` ends (the process closed its end, or ended), then exits. The keeper calls
/// only async-signal-safe functions, so a process with threads may fork it. Returns the keeper's process ID, or -1
/// with errno set.
int viewfinder_fork_cleanup_keeper(
    int control, const struct viewfinder_cleanup_step *early, int early_count,
    const struct viewfinder_cleanup_step *last, int last_count);

/// Gives thread `thread` of this process the user and group IDs `user` and `group` (real, effective and saved; its
/// supplementary groups `group` alone), from a signal handler it runs (SIGRTMAX - 1, which it must not block), with
/// the per-thread system calls: for the threads glibc's setuid(2) leaves out, such as a main thread that Dispatch
/// parked in its exit, where it waits in sigsuspend(2) with every signal open. One call at a time. Returns 0 once
/// the thread has them, -1 with errno set when it could not be signalled, refused, or did not answer within five
/// seconds.
int viewfinder_set_thread_credentials(int thread, unsigned int user, unsigned int group);

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
