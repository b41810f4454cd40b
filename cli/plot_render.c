/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_render.c - running gnuplot for `netsim plot`. The script goes to
 * gnuplot's standard input, the image comes back on its standard output
 * into a file beside the output (".NAME.XXXXXX"), which replaces the
 * output only once gnuplot exited 0 and the image is whole; a plot that
 * failed leaves the previous image, and no file of its own, behind.
 * gnuplot's messages go to an anonymous temporary file (tmpfile(): no
 * name on disk) and are shown when it fails. Ctrl-C or a kill while
 * gnuplot runs stops it and removes the partial image.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sim/xalloc.h"
#include "cli/plot.h"

/* What the signal handler cleans up. */
static volatile pid_t child = -1;
static char partial[PATH_MAX];

static void on_signal(int sig)
{
    if (child > 0)
        kill(child, SIGTERM);
    if (partial[0])
        unlink(partial);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction saved[sizeof caught / sizeof caught[0]];

static void catch_signals(int on)
{
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        if (on) {
            struct sigaction sa = { .sa_handler = on_signal };
            sigemptyset(&sa.sa_mask);
            sigaction(caught[i], &sa, &saved[i]);
        } else {
            sigaction(caught[i], &saved[i], NULL);
        }
    }
}

static void drop_partial(void)
{
    if (partial[0])
        unlink(partial);
    partial[0] = '\0';
}

/* gnuplot's messages, indented, at most 20 lines. */
static void show_messages(FILE *err)
{
    char line[512];
    int n = 0;

    rewind(err);
    while (fgets(line, sizeof line, err) && n < 20) {
        if (line[strspn(line, " \t\n")] == '\0')
            continue;
        fprintf(stderr, "  %s%s", line, strchr(line, '\n') ? "" : "\n");
        n++;
    }
}

/* The image is whole: a PNG ends with its IEND chunk, an SVG with </svg>. */
static int image_whole(int fd, const char *out)
{
    struct stat sb;
    char tail[64] = { 0 };
    size_t len = strlen(out);
    off_t n;

    if (fstat(fd, &sb) != 0 || sb.st_size < 16)
        return 0;
    n = sb.st_size < (off_t)sizeof tail - 1 ? sb.st_size : (off_t)sizeof tail - 1;
    if (pread(fd, tail, (size_t)n, sb.st_size - n) != n)
        return 0;
    if (len > 4 && !strcasecmp(out + len - 4, ".svg"))
        return memmem(tail, (size_t)n, "</svg>", 6) != NULL;
    return n >= 12 && !memcmp(tail + n - 8, "IEND", 4);
}

/* Writes all of buf to fd. 0, or -1 with errno (EPIPE: gnuplot stopped
 * reading, its exit status says why). */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Starts gnuplot with the script on its stdin, stdout to img, stderr to
 * err. 0 with the exit status in *status, or 1 after saying why. */
static int run_gnuplot(const char *script, size_t len, int img, FILE *err, int *status)
{
    int in[2], ex[2], e = 0;
    ssize_t got;
    void (*old_pipe)(int);
    pid_t pid;

    if (pipe(in) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
        fprintf(stderr, PLOT_PROG ": cannot start gnuplot: %s\n", strerror(errno));
        return 1;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, PLOT_PROG ": cannot start gnuplot: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(img, 1);
        dup2(fileno(err), 2);
        close(in[0]);
        close(in[1]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        e = errno;
        if (write(ex[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    child = pid;
    close(in[0]);
    close(ex[1]);
    /* the exec pipe closes on a successful exec, else carries its errno */
    do
        got = read(ex[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(ex[0]);
    old_pipe = signal(SIGPIPE, SIG_IGN);
    if (got != (ssize_t)sizeof e && write_all(in[1], script, len) != 0 && errno != EPIPE)
        fprintf(stderr, PLOT_PROG ": writing to gnuplot: %s\n", strerror(errno));
    close(in[1]);
    signal(SIGPIPE, old_pipe);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    child = -1;
    if (got == (ssize_t)sizeof e) {
        if (e == ENOENT)
            fprintf(stderr, PLOT_PROG ": gnuplot not found (Debian: apt-get install gnuplot-nox)\n");
        else
            fprintf(stderr, PLOT_PROG ": cannot run gnuplot: %s\n", strerror(e));
        return 1;
    }
    return 0;
}

int plot_render(const char *script, size_t len, const char *out)
{
    const char *slash = strrchr(out, '/');
    char *dir = slash ? xasprintf("%.*s", (int)(slash - out + (slash == out)), out) : xstrdup(".");
    FILE *err = NULL;
    mode_t mask;
    int img = -1, status = 0, rc = 1;

    if (snprintf(partial, sizeof partial, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : out) >= (int)sizeof partial) {
        fprintf(stderr, PLOT_PROG ": %s: the path is too long\n", out);
        partial[0] = '\0';
        free(dir);
        return 1;
    }
    free(dir);
    catch_signals(1);
    img = mkstemp(partial);
    if (img < 0) {
        fprintf(stderr, PLOT_PROG ": %s: cannot write: %s\n", out, strerror(errno));
        partial[0] = '\0';
        goto done;
    }
    /* as a file the user creates: mkstemp's 0600 less the umask's bits */
    mask = umask(0);
    umask(mask);
    if (fchmod(img, 0666 & ~mask) != 0 || !(err = tmpfile())) {
        fprintf(stderr, PLOT_PROG ": %s: cannot write: %s\n", out, strerror(errno));
        goto done;
    }
    if (run_gnuplot(script, len, img, err, &status) != 0)
        goto done;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        show_messages(err);
        if (WIFEXITED(status))
            fprintf(stderr, PLOT_PROG ": gnuplot failed (exit status %d); %s not written\n", WEXITSTATUS(status),
                    out);
        else
            fprintf(stderr, PLOT_PROG ": gnuplot was killed by signal %d; %s not written\n", WTERMSIG(status), out);
        goto done;
    }
    if (!image_whole(img, out)) {
        show_messages(err);
        fprintf(stderr, PLOT_PROG ": %s: gnuplot's image is incomplete (a full disk?); not written\n", out);
        goto done;
    }
    if (fsync(img) != 0 || close(img) != 0) {
        img = -1;
        fprintf(stderr, PLOT_PROG ": %s: cannot write: %s\n", out, strerror(errno));
        goto done;
    }
    img = -1;
    if (rename(partial, out) != 0) {
        fprintf(stderr, PLOT_PROG ": %s: cannot write: %s\n", out, strerror(errno));
        goto done;
    }
    partial[0] = '\0';
    rc = 0;
done:
    if (img >= 0)
        close(img);
    if (err)
        fclose(err);
    drop_partial();
    catch_signals(0);
    return rc;
}
