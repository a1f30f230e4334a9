package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// quiet wraps secondary text (a site name, a hint, a detail) so that its
// low-importance labels read as secondary but stay legible. Fyne draws
// widget.LowImportance in the "disabled" colour, which is nearly invisible on
// both the dark (#39393a on #171718) and the light (#e3e3e3 on white) theme.
//
// Wrap a whole view or list, not each row: every override is a theme scope of
// its own, and Fyne keeps a font cache per scope and text style, parsing the
// bundled text, symbol and emoji fonts and a system font again for each
// (several MB each). A List passes its scope on to the rows it creates.
func quiet(o fyne.CanvasObject) fyne.CanvasObject {
	return container.NewThemeOverride(o, quietTheme{})
}

// quietTheme is the app's current theme with the disabled colour replaced by a
// blend of foreground and background that keeps secondary text readable (about
// 7:1 on the dark theme, 5:1 on the light one), and, on the light theme, a
// darker amber for warnings.
type quietTheme struct{}

func (quietTheme) base() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil {
		if t := a.Settings().Theme(); t != nil {
			return t
		}
	}
	return theme.DefaultTheme()
}

func (q quietTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	t := q.base()
	if n == theme.ColorNameWarning && v == theme.VariantLight {
		// The light theme's amber is about 2:1 on white: too faint for the words
		// that say why a search waits. Darken it towards the foreground.
		return blend(t.Color(n, v), color.Black, 0.65)
	}
	if n != theme.ColorNameDisabled {
		return t.Color(n, v)
	}
	w := 0.68 // share of the foreground on a dark background
	if v == theme.VariantLight {
		w = 0.82
	}
	return blend(t.Color(theme.ColorNameForeground, v), t.Color(theme.ColorNameBackground, v), w)
}

func (q quietTheme) Font(s fyne.TextStyle) fyne.Resource     { return q.base().Font(s) }
func (q quietTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return q.base().Icon(n) }
func (q quietTheme) Size(n fyne.ThemeSizeName) float32       { return q.base().Size(n) }

// blend mixes two colours, w of a and 1-w of b.
func blend(a, b color.Color, w float64) color.Color {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	mix := func(x, y uint32) uint8 { return uint8((w*float64(x) + (1-w)*float64(y)) / 257) }
	return color.NRGBA{R: mix(ar, br), G: mix(ag, bg), B: mix(ab, bb), A: 0xff}
}

// lineLayout lays out one line of a row: the first label at its natural width
// (cut with an ellipsis only when even that does not fit), the second label in
// whatever is left, cut with an ellipsis. So a long detail never runs out of the
// window, and the important first half is cut last.
type lineLayout struct {
	first   *widget.Label
	measure *widget.Label // off-screen twin of first, untruncated, to read its natural width
	gap     float32
}

// newLine builds a line of two labels; both are set to truncate.
func newLine(first, second *widget.Label) *fyne.Container {
	first.Truncation = fyne.TextTruncateEllipsis
	second.Truncation = fyne.TextTruncateEllipsis
	measure := widget.NewLabelWithStyle("", first.Alignment, first.TextStyle)
	return container.New(&lineLayout{first: first, measure: measure}, first, second)
}

func (l *lineLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		return
	}
	var natural float32
	if l.first.Text != "" {
		l.measure.SetText(l.first.Text)
		// Fyne's ellipsis check rounds the room down to whole pixels: give the
		// text that pixel back, or it is cut although it fits.
		natural = float32(math.Ceil(float64(l.measure.MinSize().Width))) + 1
	}
	w := min(natural, size.Width)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	rest := size.Width - w - l.gap
	if rest < 3*theme.TextSize() {
		// No room for a useful part of the second half: a lone "· r" only confuses.
		objs[1].Hide()
		return
	}
	objs[1].Show()
	objs[1].Move(fyne.NewPos(w+l.gap, 0))
	objs[1].Resize(fyne.NewSize(rest, size.Height))
}

func (l *lineLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(4*theme.TextSize(), h)
}
