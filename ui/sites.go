package ui

import (
	"log/slog"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/poll/words"
)

// sitesView shows one card per site: why it is being left alone, for how long,
// the evidence, and what the user can do.
type sitesView struct {
	u     *UI
	cards map[string]*siteCard
	order []string
	box   *fyne.Container
	none  *quietLabel

	content fyne.CanvasObject
}

// siteCard is one site's card; its widgets are updated in place so a countdown
// tick or a new snapshot does not rebuild it. Compact: a clear site is one line
// and its searches; a troubled one adds why, when Notifio asks again, the last
// answer and what the user can do.
type siteCard struct {
	snap model.SiteSnapshot

	card                     *fyne.Container
	name, headline           *widget.Label
	next, why, last, retryAf *widget.Label
	stats                    *quietLabel
	message                  *widget.Label
	page, browser, probe     *widget.Button // page: "Open the page it showed"
	loggedIn                 *widget.Button // "I logged in again — try now", for all the site's searches
	solve                    *widget.Button // "solve it in the browser" (browser.go)
	actions                  *fyne.Container

	// tooEarly is when a manual probe the user asked for too soon is allowed
	// (the message counts down to it); probedAt is when they asked for one that
	// went out (the message stays until its answer). Zero when neither.
	tooEarly, probedAt time.Time
}

func newSitesView(u *UI) *sitesView {
	v := &sitesView{u: u, cards: map[string]*siteCard{}}
	v.none = quietWrapped("No sites yet. When you add a search, its site appears here with its health and any wait.")
	v.box = container.NewVBox(v.none)
	intro := quietWrapped("A site that refuses Notifio is left alone for a while; every search on it waits together. " +
		"Sites that need a look come first.")
	v.content = container.NewBorder(intro, nil, nil, nil, container.NewVScroll(v.box))
	return v
}

func (v *sitesView) newCard(site string) *siteCard {
	c := &siteCard{
		name:     widget.NewLabelWithStyle(site, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		headline: widget.NewLabel(""),
		next:     wrapped(""), why: wrapped(""), last: wrapped(""), retryAf: wrapped(""),
		stats: quietWrapped(""), message: wrapped(""),
	}
	c.headline.Truncation = fyne.TextTruncateEllipsis
	c.message.Importance = widget.WarningImportance
	c.message.Hide()
	// One label for every page Notifio kept (a captcha, a "blocked" page, a
	// page that needs a browser): "Last answer" says what it was.
	c.page = widget.NewButtonWithIcon("Open the page it showed", theme.FileIcon(), func() { v.openPage(site) })
	c.browser = widget.NewButtonWithIcon("Open in browser", theme.ComputerIcon(), func() { v.openInBrowser(site) })
	c.probe = widget.NewButtonWithIcon("I solved it — probe now", theme.ConfirmIcon(), func() { v.probeNow(site) })
	c.probe.Importance = widget.HighImportance
	c.solve = widget.NewButtonWithIcon("Solve it in the browser", theme.ComputerIcon(), func() { v.solveInBrowser(site) })
	c.loggedIn = widget.NewButtonWithIcon("I logged in again — try now", theme.ViewRefreshIcon(), func() { v.tryLoginAgain(site) })
	c.loggedIn.Importance = widget.HighImportance
	c.actions = container.NewHBox(c.loggedIn, c.solve, c.browser, c.probe, c.page, layout.NewSpacer())
	lines := container.New(layout.NewCustomPaddedVBoxLayout(-theme.InnerPadding()),
		container.NewBorder(nil, nil, c.name, nil, c.headline), c.stats, c.why, c.next, c.last, c.retryAf, c.message)
	c.card = container.NewVBox(lines, c.actions, widget.NewSeparator())
	return c
}

// apply updates the cards from a snapshot, adding and dropping cards as sites come
// and go; the sites that need a look come first.
func (v *sitesView) apply(s model.Snapshot, now time.Time) {
	order := make([]string, 0, len(s.Sites))
	seen := map[string]bool{}
	troubled := map[string]bool{}
	for _, st := range s.Sites {
		c, ok := v.cards[st.Site]
		if !ok {
			c = v.newCard(st.Site)
			v.cards[st.Site] = c
		}
		v.fill(c, st, now)
		order = append(order, st.Site)
		seen[st.Site] = true
		troubled[st.Site] = words.SiteTroubled(st) || v.needsLogin(st.Site)
	}
	sort.SliceStable(order, func(i, j int) bool { return troubled[order[i]] && !troubled[order[j]] })
	for site := range v.cards {
		if !seen[site] {
			delete(v.cards, site)
		}
	}
	if strings.Join(order, "\n") != strings.Join(v.order, "\n") || len(order) == 0 {
		v.order = order
		objs := make([]fyne.CanvasObject, 0, len(order)+1)
		if len(order) == 0 {
			objs = append(objs, v.none)
		}
		for _, site := range order {
			objs = append(objs, v.cards[site].card)
		}
		v.box.Objects = objs
	}
	// Texts and buttons changed size: lay the cards out again.
	v.box.Refresh()
}

// fill writes a site snapshot into its card.
func (v *sitesView) fill(c *siteCard, st model.SiteSnapshot, now time.Time) {
	c.snap = st
	setText(c.headline, words.SiteWords(st, now))
	// A site whose last answer was fine is not "session expired", whatever a
	// search stopped on earlier: that search waits for "try now" below.
	stopped := v.loginStopped(st.Site)
	login := len(stopped) > 0 && st.LastOutcome != model.OutcomeOK
	switch {
	case login:
		// Not a wait: the searches stop until the user logs in again.
		setText(c.headline, words.WordsLogin)
		showText(c.why, words.SiteLoginWhy)
	case len(stopped) > 0:
		showText(c.why, words.StoppedAtLoginWhy(len(stopped)))
	case st.Kind == 0:
		showText(c.why, "") // the headline says it all
	default:
		showText(c.why, words.SiteWhy(st))
	}
	showText(c.next, words.NextProbeWords(st, now))
	last := ""
	if words.SiteTroubled(st) || login {
		last = words.SiteLastAnswer(st)
	}
	showText(c.last, last)
	showText(c.retryAf, words.RetryAfterWords(st))
	c.stats.SetText(words.SiteStats(st, v.searchNames(st.Site)))

	v.probeAnswered(c, st)
	// A site that lets us in again has nothing to show of the page that
	// kept it waiting.
	_, hasPage := v.pagePath(st)
	hasPage = hasPage && st.Kind != 0
	showIf(c.page, hasPage)
	challenge := st.Kind == model.RefusalChallenge
	showIf(c.browser, challenge)
	showIf(c.solve, challenge)
	showIf(c.probe, challenge && !st.ProbeInFlight)
	showIf(c.loggedIn, len(stopped) > 0)
	if hasPage || challenge || len(stopped) > 0 {
		c.actions.Show()
	} else {
		c.actions.Hide()
	}
}

// searchNames are the names of the site's searches.
func (v *sitesView) searchNames(site string) []string {
	var names []string
	for _, s := range v.u.snap.Searches {
		if s.Site == site {
			names = append(names, s.Name)
		}
	}
	return names
}

// probeAnswered clears "Probing…" once the probe the user asked for has its
// answer in a snapshot taken after they asked: the site let us in (no kind) or
// the wait climbed past the probe.
func (v *sitesView) probeAnswered(c *siteCard, st model.SiteSnapshot) {
	if c.probedAt.IsZero() || !v.u.snap.At.After(c.probedAt) || st.ProbeInFlight ||
		(st.Kind != 0 && !st.NextProbe.After(c.probedAt)) {
		return
	}
	c.probedAt = time.Time{}
	c.message.Hide()
}

// needsLogin reports whether a search of the site stopped because its session
// expired (the snapshot's site state does not carry it).
func (v *sitesView) needsLogin(site string) bool { return len(v.loginStopped(site)) > 0 }

// loginStopped are the IDs of the site's searches that stopped at its login page.
func (v *sitesView) loginStopped(site string) []string {
	var ids []string
	for _, s := range v.u.snap.Searches {
		if s.Site == site && s.State == model.StateAttention && s.LastOutcome == model.OutcomeSessionExpired {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// tryLoginAgain checks again every search of the site that stopped at its
// login page, once the user logged in again: one press for the whole site.
func (v *sitesView) tryLoginAgain(site string) {
	c, ok := v.cards[site]
	if !ok {
		return
	}
	ids := v.loginStopped(site)
	c.loggedIn.Disable()
	go func() {
		var failed error
		for _, id := range ids {
			if err := v.u.b.CheckNow(id); err != nil && failed == nil {
				failed = err
			}
		}
		v.u.dispatch(func() {
			c.loggedIn.Enable()
			if failed != nil {
				slog.Warn("try login again", "site", site, "err", failed)
				c.message.Importance = widget.WarningImportance
				c.message.SetText("Notifio could not check " + site + " now: " + backendWords(failed))
			} else {
				c.message.Importance = widget.SuccessImportance
				c.message.SetText("Checking " + words.Plural(len(ids), "search", "searches") + " of " + site + " now.")
			}
			c.message.Show()
			v.u.refresh()
		})
	}()
}

// tick updates the countdowns of the sites that are waiting.
func (v *sitesView) tick(now time.Time) {
	for _, site := range v.order {
		c := v.cards[site]
		showText(c.next, words.NextProbeWords(c.snap, now))
		if !c.tooEarly.IsZero() {
			if now.Before(c.tooEarly) {
				setText(c.message, words.TooEarlyWords(site, c.tooEarly, now))
			} else {
				c.tooEarly = time.Time{}
				c.message.Importance = widget.MediumImportance
				setText(c.message, "You can probe "+site+" now: press \u201cI solved it \u2014 probe now\u201d again.")
			}
		}
		if c.snap.Waiting && !v.needsLogin(site) {
			setText(c.headline, words.SiteWords(c.snap, now))
		}
	}
}

// pagePath is the saved copy of the last page that put the site on a wait
// (the snapshot's LastRefusal), if any.
func (v *sitesView) pagePath(st model.SiteSnapshot) (string, bool) {
	if st.LastRefusal != "" {
		return st.LastRefusal, true
	}
	return v.u.b.RefusalPage(st.Site)
}

// openPage opens the saved copy of the page the site showed in the system's
// viewer.
func (v *sitesView) openPage(site string) {
	c, ok := v.cards[site]
	if !ok {
		return
	}
	p, ok := v.pagePath(c.snap)
	if !ok {
		v.u.showMessage("No saved page", "Notifio has no saved copy of the page "+site+" showed.")
		return
	}
	v.u.open(fileURL(p))
}

// fileURL turns a local path into a file:// URL (Windows drive letters included).
func fileURL(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// openInBrowser opens the site (one of its searches) so the user can solve the
// challenge there.
func (v *sitesView) openInBrowser(site string) {
	target := "https://" + site + "/"
	for _, s := range v.u.snap.Searches {
		if s.Site == site && s.URL != "" {
			target = s.URL
			break
		}
	}
	v.u.open(target)
}

// probeNow lets one search try the site now, after the user solved its challenge
// in the browser; too early, it says from when.
func (v *sitesView) probeNow(site string) {
	c, ok := v.cards[site]
	if !ok {
		return
	}
	at, err := v.u.b.ProbeNow(site)
	now := v.u.now()
	c.tooEarly, c.probedAt = time.Time{}, time.Time{}
	switch {
	case err != nil && !at.IsZero():
		c.tooEarly = at
		c.message.Importance = widget.WarningImportance
		c.message.SetText(words.TooEarlyWords(site, at, now))
	case err != nil:
		slog.Warn("probe now", "site", site, "err", err)
		c.message.Importance = widget.DangerImportance
		c.message.SetText("Notifio could not probe " + site + ": " + backendWords(err))
	default:
		c.probedAt = now
		c.message.Importance = widget.SuccessImportance
		c.message.SetText("Probing " + site + " now. If it lets us back in, its searches start again.")
	}
	c.message.Show()
	v.u.refresh()
}

// setText sets a label's text only when it changed, so a tick refreshes nothing
// that did not change.
func setText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

// showQuiet sets a quiet label's text and hides it when the text is empty.
func showQuiet(l *quietLabel, text string) {
	if l.Text != text {
		l.SetText(text)
	}
	showIf(l, text != "")
}

// showText sets a label's text and hides it when the text is empty.
func showText(l *widget.Label, text string) {
	setText(l, text)
	if text == "" {
		l.Hide()
	} else {
		l.Show()
	}
}

// showIf shows or hides an object.
func showIf(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}
