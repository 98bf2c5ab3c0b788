//! A reviewed game's graph as SVG: the first side's winning chance (expected score) by ply,
//! the even line, and each inaccuracy, mistake and blunder marked, for a browser to show.

use super::review::Review;
use chariot_engine::tools::analysis::Judgement;

/// The picture's size, pixels.
const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 240.0;
/// Room around the plot for the labels.
const MARGIN: f64 = 30.0;

/// `text` safe inside an SVG text node or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The mark's colour for a judgement.
fn colour(j: Judgement) -> &'static str {
    match j {
        Judgement::Inaccuracy => "#e6b800",
        Judgement::Mistake => "#e67300",
        Judgement::Blunder => "#cc0000",
    }
}

/// The graph of `review` as a standalone SVG document.
pub fn write(review: &Review) -> String {
    let plies = review.moves.len().max(1) as f64;
    let (w, h) = (WIDTH - 2.0 * MARGIN, HEIGHT - 2.0 * MARGIN);
    let x = |ply: usize| MARGIN + w * ply as f64 / plies;
    let y = |chance: f64| MARGIN + h * (1.0 - chance.clamp(0.0, 1.0));
    let mut path = format!("M {:.1} {:.1}", x(0), y(review.start_chance));
    for (i, m) in review.moves.iter().enumerate() {
        path.push_str(&format!(" L {:.1} {:.1}", x(i + 1), y(m.chance)));
    }
    let [first, second] = review.sides();
    let title = format!("{} game {}: {first} (top) against {second}", review.file, review.number);
    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\n"
    ));
    out.push_str(&format!("<title>{}</title>\n", escape(&title)));
    out.push_str(&format!(
        "<rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{w}\" height=\"{h}\" fill=\"#f4f4f4\" stroke=\"#999999\"/>\n"
    ));
    out.push_str(&format!(
        "<line x1=\"{MARGIN}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#bbbbbb\" stroke-dasharray=\"4 4\"/>\n",
        y(0.5),
        MARGIN + w,
        y(0.5)
    ));
    out.push_str(&format!(
        "<path d=\"{path}\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>\n"
    ));
    for (i, m) in review.moves.iter().enumerate() {
        let Some(j) = m.judgement else { continue };
        let ply = review.first_ply as usize + i;
        let label = format!(
            "{}{} {} ({})",
            ply / 2 + 1,
            if ply.is_multiple_of(2) { "." } else { "..." },
            m.text,
            j.name()
        );
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"><title>{}</title></circle>\n",
            x(i + 1),
            y(m.chance),
            colour(j),
            escape(&label)
        ));
    }
    let font = "font-family=\"sans-serif\" font-size=\"12\"";
    out.push_str(&format!("<text x=\"{MARGIN}\" y=\"18\" {font}>{}</text>\n", escape(&title)));
    out.push_str(&format!("<text x=\"{MARGIN}\" y=\"{:.0}\" {font}>ply 0</text>\n", HEIGHT - 10.0));
    out.push_str(&format!(
        "<text x=\"{:.0}\" y=\"{:.0}\" {font} text-anchor=\"end\">ply {}</text>\n",
        WIDTH - MARGIN,
        HEIGHT - 10.0,
        review.moves.len()
    ));
    out.push_str("</svg>\n");
    out
}
