import CFFmpeg

/// Transparent huge pages for the process. libx264 asks the kernel for 2 MB pages for each of its
/// big buffers (`madvise(MADV_HUGEPAGE)`), and the kernel clears the whole 2 MB page on the first
/// touch. storyreel's encodes are transitions of a few dozen frames, which touch a small part of
/// those pages, so the clearing was about a tenth of `cube`'s CPU (measured with `perf`: the
/// kernel's `clear_page_erms` under libx264's first writes) and bought nothing.
public enum HugePages {
    /// Turns transparent huge pages off for the rest of the process's life (Linux's
    /// `PR_SET_THP_DISABLE`, inherited by child processes). Returns false where the kernel does
    /// not know the option; nothing else changes then.
    @discardableResult
    public static func disable() -> Bool { cff_disable_transparent_huge_pages() == 0 }
}
