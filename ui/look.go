package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// colorNameQuiet is the colour of secondary text (a site name, a hint, a
// detail): quieter than the foreground but legible. Fyne draws
// widget.LowImportance in the "disabled" colour, which is nearly invisible on
// both the dark (#39393a on #171718) and the light (#e3e3e3 on white) theme, and
// which disabled buttons must keep.
const colorNameQuiet fyne.ThemeColorName = "notifio.quiet"

// useAppTheme makes the app's theme appTheme over the theme it has now (once:
// a second UI on the same app keeps the first one's).
//
// The colour used to come from a container.ThemeOverride around each view and
// list. Fyne gives an override a new theme scope on every Refresh and every new
// renderer, and keeps a font cache per scope and text style for good: each
// snapshot the searches view applied re-parsed the bundled fonts (about 12 MB a
// time), 1.5–2 MB a second with 20 searches (issue 19). An app theme has no
// scope: one font cache for the whole window.
func useAppTheme(a fyne.App) {
	s := a.Settings()
	if _, ok := s.Theme().(appTheme); ok {
		return
	}
	base := s.Theme()
	if base == nil {
		base = theme.DefaultTheme()
	}
	s.SetTheme(appTheme{base: base})
}

// appTheme is a theme with colorNameQuiet added, a blend of foreground and
// background that keeps secondary text readable (about 7:1 on the dark theme,
// 5:1 on the light one), and, on the light theme, a darker amber for warnings.
// Everything else is the base theme's.
type appTheme struct{ base fyne.Theme }

func (t appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	switch {
	case n == colorNameQuiet:
		w := 0.68 // share of the foreground on a dark background
		if v == theme.VariantLight {
			w = 0.82
		}
		return blend(t.base.Color(theme.ColorNameForeground, v), t.base.Color(theme.ColorNameBackground, v), w)
	case n == theme.ColorNameWarning && v == theme.VariantLight:
		// The light theme's amber is about 2:1 on white: too faint for the words
		// that say why a search waits. Darken it towards the foreground.
		return blend(t.base.Color(n, v), color.Black, 0.65)
	}
	return t.base.Color(n, v)
}

func (t appTheme) Font(s fyne.TextStyle) fyne.Resource     { return t.base.Font(s) }
func (t appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }
func (t appTheme) Size(n fyne.ThemeSizeName) float32       { return t.base.Size(n) }

// quietLabel is a label in colorNameQuiet: a RichText of one segment, with the
// fields of widget.Label the window uses. Set Text (or the others) and call
// Refresh, or call SetText.
type quietLabel struct {
	widget.BaseWidget
	Text       string
	Wrapping   fyne.TextWrap
	Truncation fyne.TextTruncation

	rich *widget.RichText
	seg  *widget.TextSegment
}

// newQuiet makes a quiet label.
func newQuiet(text string) *quietLabel {
	q := &quietLabel{Text: text, seg: &widget.TextSegment{Style: widget.RichTextStyleInline}}
	q.seg.Style.ColorName = colorNameQuiet
	q.rich = widget.NewRichText(q.seg)
	q.sync()
	q.ExtendBaseWidget(q)
	return q
}

// quietWrapped is a quiet label that wraps at word boundaries.
func quietWrapped(text string) *quietLabel {
	q := newQuiet(text)
	q.Wrapping = fyne.TextWrapWord
	q.sync()
	return q
}

// SetText sets the text and redraws the label.
func (q *quietLabel) SetText(text string) {
	q.Text = text
	q.Refresh()
}

// Refresh draws the label's fields again.
func (q *quietLabel) Refresh() {
	q.sync()
	q.rich.Refresh()
}

func (q *quietLabel) sync() {
	q.seg.Text, q.rich.Wrapping, q.rich.Truncation = q.Text, q.Wrapping, q.Truncation
}

// CreateRenderer draws the rich text.
func (q *quietLabel) CreateRenderer() fyne.WidgetRenderer {
	q.sync()
	return widget.NewSimpleRenderer(q.rich)
}

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

// newLine builds a line of a label and a quiet label; both are set to truncate.
func newLine(first *widget.Label, second *quietLabel) *fyne.Container {
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
