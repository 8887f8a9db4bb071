#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
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
