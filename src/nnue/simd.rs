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
fn output_kernel(net: &Network, us: &[i16], them: &[i16]) -> i32 {
    let h = net.hidden;
    let qa = net.qa as i16;
    let squared = net.activation == Activation::SCRelu;
    let mut sum = dot_kernel(us, &net.out_weights[..h], qa, squared).wrapping_add(dot_kernel(
        them,
        &net.out_weights[h..],
        qa,
        squared,
    ));
    if squared {
        sum /= net.qa;
    }
    let out = i64::from(sum) + i64::from(net.out_bias);
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
dispatch!(
    /// The network's output for the accumulators `us` (side to move) and `them`, in internal
    /// units; equal to [`Network::output_reference`].
    output, output_avx2, output_kernel, (net: &Network, us: &[i16], them: &[i16]) -> i32
);

/// The portable path's output, whatever the CPU: for tests comparing the paths.
pub fn output_portable(net: &Network, us: &[i16], them: &[i16]) -> i32 {
    output_kernel(net, us, them)
}
