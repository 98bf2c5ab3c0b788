//! The network's inner loops, written once as plain loops over lanes that the compiler turns
//! into vector code, and compiled three times: for the x86-64 baseline (SSE2, every x86-64
//! CPU), for AVX2 and for AVX-512 (F and BW), chosen at run time: AVX2 where the CPU has it
//! ([`detect`] says why not AVX-512). No `target-cpu=native` is needed, and the portable path
//! is what every other CPU runs. The output layer's multiply-add is written out in intrinsics
//! for AVX2 and AVX-512.
//!
//! `CHARIOT_SIMD=portable|avx2|avx512` forces a path (to compare them); `chariot` checks it
//! once at start ([`check_env`]) and refuses a name it does not know or a path the CPU lacks.
//!
//! All arithmetic wraps, as the vector instructions do, so every path gives the same numbers
//! bit for bit on any network (tested): the sums are taken modulo 2^32, in which the order of
//! the additions does not matter.

use super::network::{Activation, Network};
use std::sync::OnceLock;

/// Lanes per step of the output loop: a multiple of every vector width used.
const LANES: usize = 16;

/// The environment variable that forces a path.
pub const ENV: &str = "CHARIOT_SIMD";

/// Which code path the CPU runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Path {
    /// The x86-64 baseline (SSE2), or plain code on other targets.
    Portable,
    /// AVX2, detected at run time.
    Avx2,
    /// AVX-512 with its byte and word instructions (F and BW), detected at run time.
    Avx512,
}

/// Every path, the widest first.
pub const PATHS: [Path; 3] = [Path::Avx512, Path::Avx2, Path::Portable];

impl Path {
    /// The path's name, as `compiler` prints it and [`ENV`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the path.
    pub fn supported(self) -> bool {
        match self {
            Path::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// Why [`ENV`] names no path this CPU runs.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    /// Not the name of a path.
    #[error("{ENV}={}: not a path (portable, avx2 or avx512)", crate::text::excerpt(.0))]
    Unknown(String),
    /// A path this CPU lacks.
    #[error("{ENV}={0}: this CPU cannot run it (it offers {1})")]
    Unsupported(&'static str, String),
}

/// The path named `name`, if this CPU runs it.
pub fn parse(name: &str) -> Result<Path, PathError> {
    let path = PATHS
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| PathError::Unknown(name.to_string()))?;
    if !path.supported() {
        return Err(PathError::Unsupported(path.name(), available_names()));
    }
    Ok(path)
}

/// The path [`ENV`] forces, if it is set; the binary calls this at start to refuse a bad one.
pub fn check_env() -> Result<Option<Path>, PathError> {
    match std::env::var(ENV) {
        Ok(name) => parse(&name).map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(name)) => {
            Err(PathError::Unknown(name.to_string_lossy().into_owned()))
        }
    }
}

/// The path in use: the one [`ENV`] forces, else [`detect`]'s (a bad [`ENV`], which the
/// binary refuses at start, is ignored here).
pub fn selected() -> Path {
    static PATH: OnceLock<Path> = OnceLock::new();
    *PATH.get_or_init(|| check_env().ok().flatten().unwrap_or_else(detect))
}

/// The paths this CPU runs, the widest first.
pub fn available() -> impl Iterator<Item = Path> {
    PATHS.into_iter().filter(|p| p.supported())
}

/// [`available`]'s names, comma-separated.
pub fn available_names() -> String {
    available().map(Path::name).collect::<Vec<_>>().join(", ")
}

/// The path used unless [`ENV`] says otherwise: AVX2 where the CPU has it, else portable.
/// AVX-512 is only chosen by [`ENV`]: on this project's machine (an AMD EPYC, whose 512-bit
/// instructions run as two 256-bit halves) it searched `bench` about 3% slower than AVX2
/// (medians of 11 interleaved runs, within noise), its output layer a little faster and its
/// accumulator updates no faster.
pub fn detect() -> Path {
    if Path::Avx2.supported() { Path::Avx2 } else { Path::Portable }
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
    let sum = dot_kernel(us, w_us, qa, squared).wrapping_add(dot_kernel(them, w_them, qa, squared));
    scale(net, sum, bucket)
}

/// The output from the sum Σ f(acc)·w over both accumulators, the same on every path.
#[inline(always)]
fn scale(net: &Network, mut sum: i32, bucket: usize) -> i32 {
    if net.activation == Activation::SCRelu {
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
    scale(net, _mm_cvtsi128_si32(one), bucket)
}

/// The AVX-512 output layer: [`output_avx2_madd`] on 32 lanes, with a masked step for the
/// last 16 values when the hidden size is an odd multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn output_avx512_madd(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let (w_us, w_them) = net.bucket_weights(bucket);
    let squared = net.activation == Activation::SCRelu;
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(net.qa as i16);
    let one = _mm512_set1_epi16(1);
    // f(clamp(a))·w summed in pairs into 32-bit lanes.
    let terms = |a: __m512i, w: __m512i| {
        let c = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
        _mm512_madd_epi16(_mm512_mullo_epi16(c, w), if squared { c } else { one })
    };
    // Two sums, so that consecutive steps do not wait for each other's addition.
    let (mut even, mut odd) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    for (acc, w) in [(us, w_us), (them, w_them)] {
        assert!(acc.len() >= h && w.len() >= h && h.is_multiple_of(16));
        // `mask` picks the lanes of `i..i + 32` to load: all, or the last 16 values (the
        // masked-off lanes load as 0 and add 0).
        let step = |i: usize, mask: __mmask32| {
            // SAFETY: callers pass `i + 32 <= h`, or `i + 16 = h` with the low 16 lanes
            // only, and both slices hold at least `h` values (asserted above); masked-off
            // lanes are not read, and unaligned loads have no alignment requirement.
            let (a, w) = unsafe {
                (
                    _mm512_maskz_loadu_epi16(mask, acc.as_ptr().add(i)),
                    _mm512_maskz_loadu_epi16(mask, w.as_ptr().add(i)),
                )
            };
            terms(a, w)
        };
        let mut i = 0;
        while i + 64 <= h {
            even = _mm512_add_epi32(even, step(i, u32::MAX));
            odd = _mm512_add_epi32(odd, step(i + 32, u32::MAX));
            i += 64;
        }
        if i + 32 <= h {
            even = _mm512_add_epi32(even, step(i, u32::MAX));
            i += 32;
        }
        if i < h {
            odd = _mm512_add_epi32(odd, step(i, 0xFFFF));
        }
    }
    // The horizontal sum of the sixteen 32-bit lanes wraps, as the scalar path.
    scale(net, _mm512_reduce_add_epi32(_mm512_add_epi32(even, odd)), bucket)
}

/// Defines a function that runs its kernel on the path selected, the kernel compiled once more
/// for each of AVX2 and AVX-512, and one that runs it on a path named by the caller (for tests
/// comparing the paths).
macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident, $on:ident, $avx2:ident, $avx512:ident, $kernel:ident,
     ($($arg:ident: $ty:ty),*)) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $avx2($($arg: $ty),*) {
            $kernel($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512bw")]
        fn $avx512($($arg: $ty),*) {
            $kernel($($arg),*)
        }

        $(#[$doc])*
        #[inline]
        pub fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            match selected() {
                // SAFETY: `selected` returns `Avx2` only when the CPU reports AVX2.
                Path::Avx2 => return unsafe { $avx2($($arg),*) },
                // SAFETY: `selected` returns `Avx512` only when the CPU reports AVX-512 F
                // and BW.
                Path::Avx512 => return unsafe { $avx512($($arg),*) },
                Path::Portable => {}
            }
            $kernel($($arg),*)
        }

        #[doc = concat!("[`", stringify!($name), "`] on `path`; false (and nothing done) if ")]
        #[doc = "the CPU cannot run it."]
        pub fn $on(path: Path, $($arg: $ty),*) -> bool {
            if !path.supported() {
                return false;
            }
            match path {
                Path::Portable => $kernel($($arg),*),
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the CPU reports AVX2 (`supported`, checked above).
                Path::Avx2 => unsafe { $avx2($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the CPU reports AVX-512 F and BW (`supported`, checked above).
                Path::Avx512 => unsafe { $avx512($($arg),*) },
                #[cfg(not(target_arch = "x86_64"))]
                _ => return false,
            }
            true
        }
    };
}

dispatch!(
    /// `dst += row`.
    add, add_on, add_avx2, add_avx512, add_kernel, (dst: &mut [i16], row: &[i16])
);
dispatch!(
    /// `dst -= row`.
    sub, sub_on, sub_avx2, sub_avx512, sub_kernel, (dst: &mut [i16], row: &[i16])
);
dispatch!(
    /// `dst = src + a - s`: a quiet move.
    add_sub, add_sub_on, add_sub_avx2, add_sub_avx512, add_sub_kernel,
    (dst: &mut [i16], src: &[i16], a: &[i16], s: &[i16])
);
dispatch!(
    /// `dst = src + a - s1 - s2`: a capture.
    add_sub2, add_sub2_on, add_sub2_avx2, add_sub2_avx512, add_sub2_kernel,
    (dst: &mut [i16], src: &[i16], a: &[i16], s1: &[i16], s2: &[i16])
);

/// The network's output for the accumulators `us` (side to move) and `them` through output
/// bucket `bucket`, in internal units; equal to [`Network::output_reference`].
#[inline]
pub fn output(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    #[cfg(target_arch = "x86_64")]
    match selected() {
        // SAFETY: `selected` returns `Avx2` only when the CPU reports AVX2.
        Path::Avx2 => return unsafe { output_avx2_madd(net, us, them, bucket) },
        // SAFETY: `selected` returns `Avx512` only when the CPU reports AVX-512 F and BW.
        Path::Avx512 => return unsafe { output_avx512_madd(net, us, them, bucket) },
        Path::Portable => {}
    }
    output_kernel(net, us, them, bucket)
}

/// [`output`] on `path`, or `None` if the CPU cannot run it: for tests comparing the paths.
pub fn output_on(
    path: Path,
    net: &Network,
    us: &[i16],
    them: &[i16],
    bucket: usize,
) -> Option<i32> {
    if !path.supported() {
        return None;
    }
    Some(match path {
        Path::Portable => output_kernel(net, us, them, bucket),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU reports AVX2 (`supported`, checked above).
        Path::Avx2 => unsafe { output_avx2_madd(net, us, them, bucket) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU reports AVX-512 F and BW (`supported`, checked above).
        Path::Avx512 => unsafe { output_avx512_madd(net, us, them, bucket) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => return None,
    })
}
