//! The table's memory, on huge pages where Linux offers them.
//!
//! A probe lands on a random cache line of a table of tens or hundreds of megabytes: with
//! 4 KiB pages nearly every probe also misses the TLB and walks the page tables, which 2 MiB
//! pages spare (Stockfish allocates its table so for the same reason). Linux backs memory with
//! transparent huge pages either always or, as most distributions configure it, only where a
//! program asks with `madvise(MADV_HUGEPAGE)`; it does so only for 2 MiB-aligned stretches. So
//! the buffer is allocated one huge page larger than asked, its elements start at the first
//! 2 MiB boundary inside it, and the advice is given before the first write faults the pages
//! in. Where huge pages are not offered (another OS, `never`, or a table under 2 MiB) nothing
//! changes but the unused padding.

use std::collections::TryReserveError;
use std::ops::{Deref, DerefMut};

/// The size of a huge page on x86-64 and AArch64 Linux, in bytes.
const HUGE_PAGE_BYTES: usize = 2 * 1024 * 1024;

/// `len` default elements, the first on a huge-page boundary when the buffer spans at least a
/// huge page.
pub struct Pages<T> {
    /// The allocation: `offset` elements of padding, then the elements. The rest of the
    /// padding is reserved capacity past the end, never written, so never resident.
    buffer: Vec<T>,
    /// The index in `buffer` of the first element.
    offset: usize,
    /// The number of elements.
    len: usize,
}

impl<T: Default> Pages<T> {
    /// `len` default elements, or the allocation's error.
    pub fn new(len: usize) -> Result<Self, TryReserveError> {
        let size = std::mem::size_of::<T>().max(1);
        let bytes = len.saturating_mul(size);
        // Padding only when a huge page can be used at all, and only where an element size
        // divides a huge page (the table's 64-byte buckets do), so that a boundary falls on
        // an element.
        let pad = if bytes >= HUGE_PAGE_BYTES && HUGE_PAGE_BYTES.is_multiple_of(size) {
            HUGE_PAGE_BYTES / size
        } else {
            0
        };
        let mut buffer = Vec::new();
        buffer.try_reserve_exact(len + pad)?;
        let start = buffer.as_ptr() as usize;
        let offset =
            if pad == 0 { 0 } else { (start.next_multiple_of(HUGE_PAGE_BYTES) - start) / size };
        // Nothing of the buffer has been written yet, so every page it faults in below is
        // already a huge one where the advice is taken.
        if pad > 0 {
            advise_huge(start + offset * size, bytes / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES);
        }
        // Only what lies before the elements' end is written: padding after them would be
        // resident memory that no probe reads (up to 2 MiB a table).
        buffer.resize_with(offset + len, T::default);
        Ok(Pages { buffer, offset, len })
    }
}

impl<T> Pages<T> {
    /// No elements.
    pub const fn empty() -> Self {
        Pages { buffer: Vec::new(), offset: 0, len: 0 }
    }
}

impl<T> From<Vec<T>> for Pages<T> {
    /// The elements of `buffer`, where they are (no huge-page alignment).
    fn from(buffer: Vec<T>) -> Self {
        Pages { len: buffer.len(), buffer, offset: 0 }
    }
}

impl<T> Deref for Pages<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.buffer[self.offset..self.offset + self.len]
    }
}

impl<T> DerefMut for Pages<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buffer[self.offset..self.offset + self.len]
    }
}

/// Asks Linux to back `[addr, addr + bytes)` (2 MiB-aligned) with huge pages. Advice only: a
/// refusal (an old kernel, huge pages off) leaves ordinary pages, so its result is ignored.
#[cfg(target_os = "linux")]
fn advise_huge(addr: usize, bytes: usize) {
    /// `MADV_HUGEPAGE` of Linux's `<sys/mman.h>`.
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    // SAFETY: `madvise` with MADV_HUGEPAGE changes only how the kernel backs the range, never
    // its contents or validity; the range lies inside a live allocation of this process
    // (reserved by the caller, which owns it), and both ends are page-aligned as it requires.
    let _ = unsafe { madvise(addr as *mut std::ffi::c_void, bytes, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_addr: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_buffer_starts_on_a_huge_page() {
        #[derive(Default, Clone, Copy)]
        #[repr(align(64))]
        struct Line([u64; 8]);
        let pages = Pages::<Line>::new(3 * HUGE_PAGE_BYTES / 64 + 5).expect("12 MiB");
        assert_eq!(pages.len(), 3 * HUGE_PAGE_BYTES / 64 + 5);
        assert_eq!(pages.as_ptr() as usize % HUGE_PAGE_BYTES, 0);
        assert!(pages.iter().all(|l| l.0 == [0; 8]));
        assert_eq!(pages.buffer.len(), pages.offset + pages.len, "tail padding written");
    }

    #[test]
    fn a_small_buffer_has_no_padding() {
        let pages = Pages::<u64>::new(100).expect("800 bytes");
        assert_eq!(pages.len(), 100);
        assert_eq!(pages.buffer.len(), 100);
        assert!(Pages::<u64>::empty().is_empty());
    }
}
