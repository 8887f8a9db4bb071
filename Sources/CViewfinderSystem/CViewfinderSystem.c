#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <unistd.h>

#include "CViewfinderSystem.h"

void viewfinder_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
}

int viewfinder_pipe2(int descriptors[2], int flags) {
    return pipe2(descriptors, flags);
}

int viewfinder_accept4(int descriptor, struct sockaddr *address, unsigned int *length, int flags) {
    return accept4(descriptor, address, length, flags);
}

static int interrupt_pipe[2] = {-1, -1};

static void interrupt_handler(int signal_number) {
    int saved_errno = errno;
    unsigned char byte = (unsigned char)signal_number;
    // The write end does not block: a full pipe already says an interrupt is waiting.
    ssize_t written = write(interrupt_pipe[1], &byte, 1);
    (void)written;
    errno = saved_errno;
}

static void install_interrupt_handlers(void) {
    if (pipe2(interrupt_pipe, O_CLOEXEC) != 0) {
        return;
    }
    fcntl(interrupt_pipe[1], F_SETFL, O_NONBLOCK);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = interrupt_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int viewfinder_interrupt_descriptor(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_interrupt_handlers);
    return interrupt_pipe[0];
}

void viewfinder_run_cleanup(const struct viewfinder_cleanup_step *steps, int count) {
    for (int index = 0; index < count; index++) {
        const struct viewfinder_cleanup_step *step = &steps[index];
        switch (step->kind) {
        case VIEWFINDER_CLEANUP_WRITE: {
            int file = open(step->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (file >= 0) {
                ssize_t written = write(file, step->value, strlen(step->value));
                (void)written;
                close(file);
            }
            break;
        }
        case VIEWFINDER_CLEANUP_UNMOUNT:
            umount2(step->path, MNT_DETACH);
            break;
        case VIEWFINDER_CLEANUP_REMOVE_DIRECTORY:
            rmdir(step->path);
            break;
        case VIEWFINDER_CLEANUP_REMOVE_FILE:
            unlink(step->path);
            break;
        }
    }
}

int viewfinder_fork_cleanup_keeper(
    int control, const struct viewfinder_cleanup_step *early, int early_count,
    const struct viewfinder_cleanup_step *last, int last_count) {
    pid_t keeper = fork();
    if (keeper != 0) {
        return keeper;
    }
    // The keeper: only async-signal-safe calls from here on.
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (unsigned index = 0; index < sizeof ignored / sizeof ignored[0]; index++) {
        sigaction(ignored[index], &ignore, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    // Every descriptor but the control one goes, and the standard ones read and write nothing: the keeper must not
    // hold the process's files, pipes or terminal after the process ended.
    if (control != 3 && dup2(control, 3) < 0) {
        _exit(1);
    }
    if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0) {
        for (int descriptor = 4; descriptor < 65536; descriptor++) {
            close(descriptor);
        }
    }
    int null = open("/dev/null", O_RDWR);
    for (int descriptor = 0; descriptor < 3 && null >= 0; descriptor++) {
        dup2(null, descriptor);
    }
    if (null > 3) {
        close(null);
    }
    unsigned char byte;
    for (;;) {
        ssize_t count = read(3, &byte, 1);
        if (count == 1) {
            viewfinder_run_cleanup(early, early_count);
        } else if (count == 0 || errno != EINTR) {
            break;
        }
    }
    viewfinder_run_cleanup(last, last_count);
    _exit(0);
}

/// What the signalled thread takes, and how it went: 0 while it has not answered, 1 once it has its IDs, -1 when a
/// call failed. Lock-free atomics, which a signal handler may use.
static _Atomic unsigned int credentials_user;
static _Atomic unsigned int credentials_group;
static _Atomic int credentials_outcome;

static void credentials_handler(int signal_number) {
    (void)signal_number;
    int saved_errno = errno;
    gid_t group = atomic_load(&credentials_group);
    uid_t user = atomic_load(&credentials_user);
    int done = syscall(SYS_setgroups, 1, &group) == 0 && syscall(SYS_setresgid, group, group, group) == 0
        && syscall(SYS_setresuid, user, user, user) == 0;
    atomic_store(&credentials_outcome, done ? 1 : -1);
    errno = saved_errno;
}

int viewfinder_set_thread_credentials(int thread, unsigned int user, unsigned int group) {
    int signal_number = SIGRTMAX - 1;
    struct sigaction action;
    struct sigaction previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = credentials_handler;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal_number, &action, &previous) != 0) {
        return -1;
    }
    atomic_store(&credentials_user, user);
    atomic_store(&credentials_group, group);
    atomic_store(&credentials_outcome, 0);
    int result = -1;
    if (syscall(SYS_tgkill, getpid(), thread, signal_number) == 0) {
        for (int waited = 0; waited < 5000 && atomic_load(&credentials_outcome) == 0; waited++) {
            usleep(1000);
        }
        int outcome = atomic_load(&credentials_outcome);
        if (outcome == 1) {
            result = 0;
        } else {
            errno = outcome == 0 ? ETIMEDOUT : EPERM;
        }
    }
    int saved_errno = errno;
    sigaction(signal_number, &previous, NULL);
    errno = saved_errno;
    return result;
}

int viewfinder_clock_state(struct viewfinder_clock_state *state) {
    struct timex time;
    memset(&time, 0, sizeof time);
    int result = ntp_adjtime(&time);
    state->synchronized = result != -1 && result != TIME_ERROR && !(time.status & STA_UNSYNC);
    state->offset_nanoseconds = (time.status & STA_NANO) ? (long long)time.offset : (long long)time.offset * 1000;
    state->estimated_error_microseconds = time.esterror;
    state->maximum_error_microseconds = time.maxerror;
    return result;
}

int viewfinder_netlink_connect(int protocol) {
    int descriptor = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, protocol);
    if (descriptor < 0) {
        return -1;
    }
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    if (bind(descriptor, (struct sockaddr *)&address, sizeof address) < 0
        || connect(descriptor, (struct sockaddr *)&address, sizeof address) < 0) {
        int error = errno;
        close(descriptor);
        errno = error;
        return -1;
    }
    return descriptor;
}
