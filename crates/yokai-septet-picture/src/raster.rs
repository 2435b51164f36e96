//! Pictures as pixels (feature `raster`): the SVG rasterised with `resvg`.
//!
//! Text is set in the bundled DejaVu Sans subset (`assets/fonts`, Bitstream Vera license),
//! never in system fonts, so the same picture gives the same pixels on every machine,
//! fonts installed or not.

use std::fmt;
use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

const SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-subset.ttf");
const SANS_BOLD: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold-subset.ttf");

/// An RGB image, row-major, 3 bytes per pixel (no alpha: drawn on white).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raster {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `3 · width · height` bytes: red, green, blue per pixel, row by row.
    pub rgb: Vec<u8>,
}

/// Why a picture could not be rasterised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RasterError(pub String);

impl fmt::Display for RasterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RasterError {}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(SANS.to_vec());
            db.load_font_data(SANS_BOLD.to_vec());
            // Generic families (and unknown names) fall back to the bundled face.
            db.set_sans_serif_family("DejaVu Sans");
            db.set_serif_family("DejaVu Sans");
            db.set_monospace_family("DejaVu Sans");
            Arc::new(db)
        })
        .clone()
}

/// The largest scale [`rasterize`] draws at (a picture of 7,680 × 5,120 pixels).
pub const MAX_SCALE: f32 = 8.0;

/// Rasterises an SVG document at `scale` (1.0: one pixel per SVG unit), on white.
pub fn rasterize(svg: &str, scale: f32) -> Result<Raster, RasterError> {
    if !(scale > 0.0 && scale <= MAX_SCALE) {
        return Err(RasterError(format!(
            "scale must be in (0, {MAX_SCALE}], got {scale}"
        )));
    }
    let mut opt = usvg::Options {
        font_family: "DejaVu Sans".into(),
        ..usvg::Options::default()
    };
    opt.fontdb = fonts();
    let tree = usvg::Tree::from_str(svg, &opt)
        .map_err(|e| RasterError(format!("not a valid SVG picture: {e}")))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| RasterError("the picture has no area at this scale".to_string()))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| RasterError("the picture is too large".to_string()))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Opaque pixels: premultiplied RGBA equals straight RGBA, so dropping alpha is exact.
    let rgb = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    Ok(Raster {
        width: size.width(),
        height: size.height(),
        rgb,
    })
}

impl Raster {
    /// The image as a PNG file's bytes.
    pub fn to_png(&self) -> Result<Vec<u8>, RasterError> {
        let mut pixmap = tiny_skia::Pixmap::new(self.width, self.height)
            .ok_or_else(|| RasterError("empty image".to_string()))?;
        for (dst, src) in pixmap
            .data_mut()
            .chunks_exact_mut(4)
            .zip(self.rgb.chunks_exact(3))
        {
            dst.copy_from_slice(&[src[0], src[1], src[2], 255]);
        }
        pixmap
            .encode_png()
            .map_err(|e| RasterError(format!("PNG encoding failed: {e}")))
    }
}
