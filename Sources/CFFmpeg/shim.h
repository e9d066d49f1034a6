// The C bridge to FFmpeg 5.1 (Debian's -dev packages, headers under /usr/include/x86_64-linux-gnu/).
// Swift cannot import function-like macros or compound literals, so each one used by storyreel
// gets a `static inline` twin here, prefixed `cff_`.
#ifndef STORYREEL_CFFMPEG_SHIM_H
#define STORYREEL_CFFMPEG_SHIM_H

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/xattr.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/hash.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>
#include <libswscale/swscale.h>

/// AVERROR(e): a negative FFmpeg error code from a POSIX errno value.
static inline int cff_averror(int posix_errno) { return AVERROR(posix_errno); }

// ioctl is variadic, which Swift cannot call: the width of the terminal on `fd`, 0 when unknown.
static inline int cff_terminal_columns(int fd) {
    struct winsize size;
    return ioctl(fd, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
}
// copy_file_range(2) is declared only under _GNU_SOURCE, so Swift cannot see it: up to `length`
// bytes from `in`'s position to `out`'s, copied by the kernel; the bytes copied, or -1 and errno.
static inline ssize_t cff_copy_file_range(int in, int out, size_t length) {
    return (ssize_t)syscall(SYS_copy_file_range, in, NULL, out, NULL, length, 0);
}
/// AVERROR(EAGAIN): "output is not available in this state, feed more input".
static inline int cff_error_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: end of file / end of stream.
static inline int cff_error_eof(void) { return AVERROR_EOF; }
/// AVERROR_INVALIDDATA.
static inline int cff_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_EXTERNAL: "Generic error in an external library" (zlib, in the PNG decoder).
static inline int cff_error_external(void) { return AVERROR_EXTERNAL; }
/// AVERROR_EXIT: what an interrupted call returns.
static inline int cff_error_exit(void) { return AVERROR_EXIT; }
/// AVERROR_DECODER_NOT_FOUND.
static inline int cff_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AVERROR_ENCODER_NOT_FOUND.
static inline int cff_error_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE: microseconds.
static inline int cff_time_base(void) { return AV_TIME_BASE; }
/// AV_TIME_BASE_Q, a compound literal in C.
static inline AVRational cff_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }
/// AVINDEX_DISCARD_FRAME: an index entry an edit list hides from the viewer.
static inline int cff_index_discard_frame(void) { return AVINDEX_DISCARD_FRAME; }

/// The interrupt callback behind per-file deadlines: `opaque` points at an int64_t holding an
/// av_gettime_relative() deadline in microseconds, or 0 for none. Returning 1 aborts the
/// blocking libavformat call with AVERROR_EXIT.
static int cff_deadline_interrupt(void *opaque) {
    const int64_t deadline = *(const int64_t *)opaque;
    return deadline > 0 && av_gettime_relative() > deadline;
}

/// prctl(PR_SET_THP_DISABLE, 1): no transparent huge pages for this process from now on, even
/// where a library asks for them with madvise(MADV_HUGEPAGE) as libx264 does for its big buffers.
/// Returns 0, or -1 with errno set (a kernel without the option). prctl is variadic, which Swift
/// cannot call.
static inline int cff_disable_transparent_huge_pages(void) { return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); }

/// lseek(fd, offset, SEEK_HOLE) and lseek(fd, offset, SEEK_DATA) (3 and 4 on Linux): the offset
/// of the next hole, or of the next data, at or after `offset`; -1 with errno set (ENXIO: none).
/// glibc declares the two only under _GNU_SOURCE, which Swift's C import does not define.
static inline off_t cff_seek_hole(int fd, off_t offset) { return lseek(fd, offset, 4); }
static inline off_t cff_seek_data(int fd, off_t offset) { return lseek(fd, offset, 3); }

/// Renames `from` in the folder open as `from_folder` to `to` in `to_folder` only when nothing
/// has the name `to` (Linux's renameat2 with RENAME_NOREPLACE, 1): -1 with errno EEXIST when
/// something has it, EINVAL or ENOSYS where the file system or the kernel cannot (glibc's
/// wrapper needs _GNU_SOURCE, which Swift's C import does not define).
static inline int cff_renameat_noreplace(int from_folder, const char *from, int to_folder, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, from_folder, from, to_folder, to, 1);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Opens a new, nameless regular file for writing in the folder open as `folder` (Linux's
/// O_TMPFILE, which glibc defines only under _GNU_SOURCE): it gets a name only when linked
/// (linkat of /proc/self/fd/N), and is freed if closed first. -1 with errno EOPNOTSUPP, EISDIR
/// or EINVAL where the file system or the kernel cannot make one.
static inline int cff_open_nameless(int folder, mode_t mode) {
#ifdef __O_TMPFILE
    return openat(folder, ".", __O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
#else
    errno = EOPNOTSUPP;
    return -1;
#endif
}

// glibc declares these two only under _GNU_SOURCE, which Swift's C import does not define.
extern int pthread_getattr_default_np(pthread_attr_t *attr);
extern int pthread_setattr_default_np(const pthread_attr_t *attr);

/// The stack size, in bytes, of threads started without one of their own (FFmpeg's, libx264's,
/// Foundation's): glibc takes it from `ulimit -s` at start-up. 0 when it cannot be read.
static inline size_t cff_default_thread_stack_size(void) {
    pthread_attr_t attributes;
    size_t size = 0;
    if (pthread_getattr_default_np(&attributes) != 0) return 0;
    if (pthread_attr_getstacksize(&attributes, &size) != 0) size = 0;
    pthread_attr_destroy(&attributes);
    return size;
}

/// Sets the stack size of threads started from now on without one of their own. Returns 0 or
/// an errno value.
static inline int cff_set_default_thread_stack_size(size_t size) {
    pthread_attr_t attributes;
    int status = pthread_getattr_default_np(&attributes);
    if (status != 0) return status;
    status = pthread_attr_setstacksize(&attributes, size);
    if (status == 0) status = pthread_setattr_default_np(&attributes);
    pthread_attr_destroy(&attributes);
    return status;
}

/// Installs the deadline callback on a format context before it is opened.
static inline void cff_install_deadline(AVFormatContext *context, int64_t *deadline) {
    context->interrupt_callback.callback = cff_deadline_interrupt;
    context->interrupt_callback.opaque = deadline;
}

#endif
