package api

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"notifio/internal/model"
)

// The client is the API's Watcher and Delivery (ops.go), so the window
// takes a *Client as its backend; each is one request.

// AddSearch adds a search.
func (c *Client) AddSearch(ctx context.Context, in model.SearchInput) (model.Search, error) {
	var s model.Search
	err := c.do(ctx, http.MethodPost, "/searches", in, &s)
	return s, err
}

// UpdateSearch edits a search.
func (c *Client) UpdateSearch(ctx context.Context, id string, in model.SearchInput) (model.Search, error) {
	var s model.Search
	err := c.do(ctx, http.MethodPut, "/searches/"+esc(id), in, &s)
	return s, err
}

// Search returns one saved search.
func (c *Client) Search(id string) (model.Search, error) {
	var s model.Search
	err := c.call(http.MethodGet, "/searches/"+esc(id), nil, &s)
	return s, err
}

// RemoveSearch removes a search.
func (c *Client) RemoveSearch(id string) error {
	return c.call(http.MethodDelete, "/searches/"+esc(id), nil, nil)
}

// SetPaused pauses or resumes a search (resuming one told "log in again"
// tries it at once).
func (c *Client) SetPaused(id string, paused bool) error {
	return c.call(http.MethodPut, "/searches/"+esc(id)+"/paused", Paused{Paused: paused}, nil)
}

// PauseAll pauses or resumes every search.
func (c *Client) PauseAll(paused bool) error {
	return c.call(http.MethodPut, "/paused", Paused{Paused: paused}, nil)
}

// CheckNow queues an immediate check; a waiting site returns a *model.WaitError.
func (c *Client) CheckNow(id string) error {
	return c.call(http.MethodPost, "/searches/"+esc(id)+"/check", nil, nil)
}

// TestSearch runs one dry-run poll in the watcher, saving nothing.
func (c *Client) TestSearch(ctx context.Context, in model.SearchInput) (model.DryRun, error) {
	var dr model.DryRun
	err := c.do(ctx, http.MethodPost, "/test", in, &dr)
	return dr, err
}

// SiteRate is the request rate of a site's searches with this one added.
// A watcher that does not answer gives 0 and no warning.
func (c *Client) SiteRate(rawURL string, interval time.Duration, exceptID string) (float64, string) {
	q := url.Values{"url": {rawURL}, "interval": {interval.String()}, "except": {exceptID}}
	var r SiteRate
	if err := c.call(http.MethodGet, "/site-rate?"+q.Encode(), nil, &r); err != nil {
		return 0, ""
	}
	return r.PerMinute, r.Warning
}

// Listings are a search's listings, newest first.
func (c *Client) Listings(searchID string) ([]model.Listing, error) {
	var ls []model.Listing
	err := c.call(http.MethodGet, "/searches/"+esc(searchID)+"/listings", nil, &ls)
	return ls, err
}

// MarkViewed says the user has seen the search's new listings.
func (c *Client) MarkViewed(searchID string) error {
	return c.call(http.MethodPost, "/searches/"+esc(searchID)+"/viewed", nil, nil)
}

// HeldNowPassing are the held-back listings the search's filters now let through.
func (c *Client) HeldNowPassing(searchID string) ([]model.Listing, error) {
	var ls []model.Listing
	err := c.call(http.MethodGet, "/searches/"+esc(searchID)+"/held", nil, &ls)
	return ls, err
}

// ShowHeld moves held-back listings into the search's listings (no alert).
func (c *Client) ShowHeld(searchID string, ls []model.Listing) (int, error) {
	var n Count
	err := c.call(http.MethodPost, "/searches/"+esc(searchID)+"/show-held", ls, &n)
	return n.Count, err
}

// ProbeNow lets the site's probe go ("I solved it in my browser").
func (c *Client) ProbeNow(site string) (time.Time, error) {
	var p ProbeAt
	err := c.call(http.MethodPost, "/sites/"+esc(site)+"/probe", nil, &p)
	return p.At, err
}

// SolveInBrowser has the watcher open a window of the browser on its
// machine at the site's page, and returns when the user closed it. started
// gets nil (the window is the watcher's, not this process's): SolveDone ends
// it, as the window's Done button does.
func (c *Client) SolveInBrowser(ctx context.Context, site string, started func(model.SolveWindow)) (model.SolveResult, error) {
	if started != nil {
		started(nil)
	}
	var res model.SolveResult
	err := c.do(ctx, http.MethodPost, "/sites/"+esc(site)+"/solve", nil, &res)
	return res, err
}

// SolveDone ends the site's "solve in the browser" window as if the user had
// closed it (nothing when none is open).
func (c *Client) SolveDone(site string) error {
	return c.call(http.MethodPost, "/sites/"+esc(site)+"/solve/done", nil, nil)
}

// BrowserAvailable is nil when the watcher's machine has a browser for "Read
// with a browser", else the error saying what to install.
func (c *Client) BrowserAvailable() error {
	var st BrowserState
	if err := c.call(http.MethodGet, "/browser", nil, &st); err != nil {
		return err
	}
	if st.Problem != nil {
		return st.Problem.Err()
	}
	return nil
}

// BrowserDefault reports whether a new search of the URL's site reads with a
// browser (false when the watcher does not answer).
func (c *Client) BrowserDefault(rawURL string) bool {
	var b BrowserDefault
	if err := c.call(http.MethodGet, "/browser-default?"+url.Values{"url": {rawURL}}.Encode(), nil, &b); err != nil {
		return false
	}
	return b.Browser
}

// RefusalPage is the path, on the watcher's machine, of the saved copy of
// the site's last refusal page.
func (c *Client) RefusalPage(site string) (string, bool) {
	var p RefusalPage
	if err := c.call(http.MethodGet, "/sites/"+esc(site)+"/refusal-page", nil, &p); err != nil {
		return "", false
	}
	return p.Path, p.OK
}

// AlertSettings are when the user is told a search stopped working (the
// defaults when the watcher does not answer; AlertSettingsErr says why).
func (c *Client) AlertSettings() model.AlertSettings {
	a, _ := c.AlertSettingsErr()
	return a
}

// AlertSettingsErr is AlertSettings with the error of the request.
func (c *Client) AlertSettingsErr() (model.AlertSettings, error) {
	var a model.AlertSettings
	err := c.call(http.MethodGet, "/alert-settings", nil, &a)
	return a, err
}

// SetAlertSettings saves the alert settings.
func (c *Client) SetAlertSettings(a model.AlertSettings) error {
	return c.call(http.MethodPut, "/alert-settings", a, nil)
}

// DesktopNotifications reports whether the watcher shows desktop notifications.
func (c *Client) DesktopNotifications() (bool, error) {
	var d DesktopNotifications
	err := c.call(http.MethodGet, "/desktop-notifications", nil, &d)
	return d.On, err
}

// SetDesktopNotifications turns the watcher's desktop notifications on or off.
func (c *Client) SetDesktopNotifications(on bool) error {
	return c.call(http.MethodPut, "/desktop-notifications", DesktopNotifications{On: on}, nil)
}

// EmailConfig returns the saved SMTP settings.
func (c *Client) EmailConfig() (model.Config, error) {
	var cfg model.Config
	err := c.call(http.MethodGet, "/email", nil, &cfg)
	return cfg, err
}

// SetEmailConfig saves the SMTP settings and the password.
func (c *Client) SetEmailConfig(cfg model.Config, password string) (string, error) {
	var w Warning
	err := c.call(http.MethodPut, "/email", EmailSet{Config: cfg, Password: password}, &w)
	return w.Warning, err
}

// SendTestEmail sends a test email from the watcher ("" password: the saved one).
func (c *Client) SendTestEmail(ctx context.Context, cfg model.Config, password string) error {
	return c.do(ctx, http.MethodPost, "/email/test", EmailSet{Config: cfg, Password: password}, nil)
}

// RetryOutbox puts the emails that need attention back in the queue.
func (c *Client) RetryOutbox() error {
	return c.call(http.MethodPost, "/email/retry", nil, nil)
}

// Channels are the push channels with how their pushes are doing.
func (c *Client) Channels() ([]model.ChannelState, error) {
	var cs []model.ChannelState
	err := c.call(http.MethodGet, "/channels", nil, &cs)
	return cs, err
}

// AddChannel saves a push channel.
func (c *Client) AddChannel(in model.NewChannel) (model.Channel, string, error) {
	var a ChannelAdded
	err := c.call(http.MethodPost, "/channels", in, &a)
	return a.Channel, a.Warning, err
}

// TestChannel sends one test push.
func (c *Client) TestChannel(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodPost, "/channels/"+esc(name)+"/test", nil, nil)
}

// RemoveChannel removes a channel and its URL.
func (c *Client) RemoveChannel(name string) (string, error) {
	var w Warning
	err := c.call(http.MethodDelete, "/channels/"+esc(name), nil, &w)
	return w.Warning, err
}
