import CVipsShim

/// glibc's allocator, set for a process that reads and writes many megabytes in a few hundred
/// milliseconds.
///
/// By default glibc gives every block over 128 KB (a page, an archive, a strip of 10,000 tiles)
/// pages of its own with `mmap` and returns them on `free`, and trims the heap's top as it
/// shrinks, so the next such block faults its pages in afresh; in a one-album rebuild of 10,000
/// albums those faults were about a sixth of the time. Set here, freed memory is kept for the
/// next allocation instead: blocks up to 32 MB come from the heap, the heap is trimmed only past
/// 256 MB free, and it grows 64 MB at a time (address space, not memory, until it is used). A
/// `GLIBC_TUNABLES` that sets any `glibc.malloc` value is left to decide.
public enum AllocatorTuning {
    /// Applies the settings; call it first thing in `main`, before large blocks are allocated.
    public static func apply() {
        gallery_tune_allocator()
    }

    /// Returns the freed memory kept this way to the system. A build ends and gives it all back;
    /// `gallery serve` runs on, and after one download of a large file stayed at 300–600 MB.
    public static func releaseFreed() {
        gallery_release_freed_memory()
    }
}
