//! The network's inner loops, written once as plain loops over lanes that the compiler turns
//! into vector code, and compiled twice: for the x86-64 baseline (SSE2, every x86-64 CPU) and
//! for AVX2, chosen at run time when the CPU has it. No `target-cpu=native` is needed, and the
//! portable path is what every other CPU (and `CHARIOT_SIMD=portable`) runs.
//!
//! All arithmetic wraps, as the vector instructions do, so both paths give the same numbers
//! bit for bit on any network (tested).

use super::network::{Activation, Network};
use std::sync::OnceLock;

/// Lanes per step of the output loop: a multiple of every vector width used.
const LANES: usize = 16;

/// Which code path the CPU runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Path {
    /// The x86-64 baseline (SSE2), or plain code on other targets.
    Portable,
    /// AVX2, detected at run time.
    Avx2,
}

impl Path {
    /// The path's name, as `compiler` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable",
            Path::Avx2 => "avx2",
        }
    }
}

/// The path in use: AVX2 when the CPU has it, unless `CHARIOT_SIMD=portable` is set.
pub fn selected() -> Path {
    static PATH: OnceLock<Path> = OnceLock::new();
    *PATH.get_or_init(|| {
        if std::env::var("CHARIOT_SIMD").is_ok_and(|v| v == "portable") {
            return Path::Portable;
        }
        detect()
    })
}

/// The best path this CPU can run.
pub fn detect() -> Path {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Path::Avx2;
        }
    }
    Path::Portable
}

#[inline(always)]
fn add_kernel(dst: &mut [i16], row: &[i16]) {
    for (d, &r) in dst.iter_mut().zip(row) {
        *d = d.wrapping_add(r);
    }
}

#[inline(always)]
fn sub_kernel(dst: &mut [i16], row: &[i16]) {
    for (d, &r) in dst.iter_mut().zip(row) {
        *d = d.wrapping_sub(r);
    }
}

#[inline(always)]
fn add_sub_kernel(dst: &mut [i16], src: &[i16], a: &[i16], s: &[i16]) {
    for (((d, &x), &a), &s) in dst.iter_mut().zip(src).zip(a).zip(s) {
        *d = x.wrapping_add(a).wrapping_sub(s);
    }
}

#[inline(always)]
fn add_sub2_kernel(dst: &mut [i16], src: &[i16], a: &[i16], s1: &[i16], s2: &[i16]) {
    for ((((d, &x), &a), &s1), &s2) in dst.iter_mut().zip(src).zip(a).zip(s1).zip(s2) {
        *d = x.wrapping_add(a).wrapping_sub(s1).wrapping_sub(s2);
    }
}

/// Σ f(clamp(acc, 0, qa)) · w over one accumulator, wrapping in 32 bits.
#[inline(always)]
fn dot_kernel(acc: &[i16], w: &[i16], qa: i16, squared: bool) -> i32 {
    let mut lanes = [0i32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for k in 0..LANES {
            let c = a[k].clamp(0, qa);
            // c·w is an i16 product (|c| <= 255, trained weights |w| <= 127); SCReLU then
            // multiplies by c once more in 32 bits, as a multiply-add instruction does.
            let cw = c.wrapping_mul(w[k]);
            let term = if squared { i32::from(cw) * i32::from(c) } else { i32::from(cw) };
            lanes[k] = lanes[k].wrapping_add(term);
        }
    }
    lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

/// The output layer over both accumulators, in internal units.
#[inline(always)]
fn output_kernel(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    let (w_us, w_them) = net.bucket_weights(bucket);
    let qa = net.qa as i16;
    let squared = net.activation == Activation::SCRelu;
    let mut sum =
        dot_kernel(us, w_us, qa, squared).wrapping_add(dot_kernel(them, w_them, qa, squared));
    if squared {
        sum /= net.qa;
    }
    let out = i64::from(sum) + i64::from(net.out_bias[bucket]);
    (out * i64::from(net.scale) / i64::from(net.qa * net.qb)) as i32
}

/// The AVX2 output layer: the same sums as [`output_kernel`], with the multiply-add written
/// out, since the compiler does not find `vpmaddwd` in the plain loop (measured: the output
/// layer was most of the network's cost).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_avx2_madd(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let (w_us, w_them) = net.bucket_weights(bucket);
    let squared = net.activation == Activation::SCRelu;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(net.qa as i16);
    let mut sum = _mm256_setzero_si256();
    for (acc, w) in [(us, w_us), (them, w_them)] {
        assert!(acc.len() >= h && w.len() >= h && h.is_multiple_of(16));
        for i in (0..h).step_by(16) {
            // SAFETY: `i + 16 <= h` and both slices hold at least `h` values (asserted
            // above); unaligned loads have no alignment requirement.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let cw = _mm256_mullo_epi16(c, w);
            let terms = if squared {
                _mm256_madd_epi16(cw, c)
            } else {
                _mm256_madd_epi16(cw, _mm256_set1_epi16(1))
            };
            sum = _mm256_add_epi32(sum, terms);
        }
    }
    // Horizontal sum of the eight 32-bit lanes (wrapping, as the scalar path).
    let quad = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    let pair = _mm_add_epi32(quad, _mm_shuffle_epi32(quad, 0b01_00_11_10));
    let one = _mm_add_epi32(pair, _mm_shuffle_epi32(pair, 0b10_11_00_01));
    let mut total = _mm_cvtsi128_si32(one);
    if squared {
        total /= net.qa;
    }
    let out = i64::from(total) + i64::from(net.out_bias[bucket]);
    (out * i64::from(net.scale) / i64::from(net.qa * net.qb)) as i32
}

/// Defines a function that runs its kernel on the AVX2 path when selected.
macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident, $avx:ident, $kernel:ident, ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $avx($($arg: $ty),*) $(-> $ret)? {
            $kernel($($arg),*)
        }

        $(#[$doc])*
        #[inline]
        pub fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if selected() == Path::Avx2 {
                // SAFETY: `selected` returns `Avx2` only when the CPU reports AVX2.
                return unsafe { $avx($($arg),*) };
            }
            $kernel($($arg),*)
        }
    };
}

dispatch!(
    /// `dst += row`.
    add, add_avx2, add_kernel, (dst: &mut [i16], row: &[i16])
);
dispatch!(
    /// `dst -= row`.
    sub, sub_avx2, sub_kernel, (dst: &mut [i16], row: &[i16])
);
dispatch!(
    /// `dst = src + a - s`: a quiet move.
    add_sub, add_sub_avx2, add_sub_kernel, (dst: &mut [i16], src: &[i16], a: &[i16], s: &[i16])
);
dispatch!(
    /// `dst = src + a - s1 - s2`: a capture.
    add_sub2, add_sub2_avx2, add_sub2_kernel,
    (dst: &mut [i16], src: &[i16], a: &[i16], s1: &[i16], s2: &[i16])
);
/// The network's output for the accumulators `us` (side to move) and `them` through output
/// bucket `bucket`, in internal units; equal to [`Network::output_reference`].
#[inline]
pub fn output(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if selected() == Path::Avx2 {
        // SAFETY: `selected` returns `Avx2` only when the CPU reports AVX2.
        return unsafe { output_avx2_madd(net, us, them, bucket) };
    }
    output_kernel(net, us, them, bucket)
}

/// The portable path's output, whatever the CPU: for tests comparing the paths.
pub fn output_portable(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    output_kernel(net, us, them, bucket)
}
