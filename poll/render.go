package poll

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"

	"notifio/poll/browser"
	"notifio/poll/fetch"

	"notifio/internal/model"

	"notifio/poll/words"
)

// Renderer reads pages in a real browser: *browser.Browser.
type Renderer interface {
	// Render loads one page and returns the main document's status and
	// headers and the DOM after the page's scripts ran.
	Render(ctx context.Context, req browser.Request) (*browser.Page, error)
	// Available is nil when a browser is installed, else the error that says
	// what to install.
	Available() error
	// Solve opens a visible window at the page for the user to solve a check.
	Solve(ctx context.Context, pageURL string) (*browser.Session, error)
}

// browserState is the Service's browser: Options.Browser, or one of its own
// with its profile in the data folder, started at the first render.
type browserState struct {
	once sync.Once
	r    Renderer
	own  *browser.Browser
}

// browser returns the Service's browser.
func (s *Service) browser() Renderer {
	s.br.once.Do(func() {
		if s.opts.Browser != nil {
			s.br.r = s.opts.Browser
			return
		}
		dir := ""
		if s.opts.DataDir != "" {
			dir = filepath.Join(s.opts.DataDir, "browser-profile")
		}
		log := s.log
		if log == nil {
			log = slog.Default()
		}
		s.br.own = browser.New(browser.Options{ProfileDir: dir, Timeout: s.opts.RequestTimeout, Logger: log})
		s.br.r = s.br.own
	})
	return s.br.r
}

// closeBrowser ends the browser process the Service started, if any.
func (s *Service) closeBrowser() {
	if s.br.own != nil {
		s.br.own.Close()
	}
}

// get reads one page: a plain fetch, or for a search that reads with a
// browser a render, returned as the same Response so that classification,
// extraction and the site's backoff treat both alike (one request each).
func (s *Service) get(ctx context.Context, j job) (*fetch.Response, error) {
	cookie := j.cookie
	if cookie == "" {
		cookie = s.cookie(j.cookieRef)
	}
	if !j.browser {
		return s.fetcher.Fetch(ctx, fetch.Request{URL: j.url, Cookie: cookie})
	}
	p, err := s.browser().Render(ctx, browser.Request{URL: j.url, Cookie: cookie})
	if err != nil {
		return nil, renderFailure(j.url, err)
	}
	return &fetch.Response{RequestURL: p.RequestURL, FinalURL: p.FinalURL, Status: p.Status, Header: p.Header,
		Body: p.HTML, RawBytes: len(p.HTML), Charset: "utf-8", Elapsed: p.Elapsed, Redirect: p.Redirect}, nil
}

// offlineTexts are the browser's errors that mean no network at all: like a
// failed DNS lookup of a plain fetch, they climb no ladder.
var offlineTexts = []string{"net::ERR_INTERNET_DISCONNECTED", "net::ERR_NAME_NOT_RESOLVED", "net::ERR_NETWORK_CHANGED", "net::ERR_ADDRESS_UNREACHABLE"}

// renderFailure turns a failed render into the *fetch.Error that the
// classifier reads as a transport failure (the error ladder).
func renderFailure(raw string, err error) error {
	var be *browser.Error
	if !errors.As(err, &be) {
		return &fetch.Error{URL: raw, Reason: "the browser failed to read the page", Err: err}
	}
	for _, t := range offlineTexts {
		if strings.Contains(be.Reason, t) {
			return &fetch.Error{URL: be.URL, Reason: be.Reason, Err: &net.DNSError{Err: t, Name: be.URL, IsNotFound: true}}
		}
	}
	return &fetch.Error{URL: be.URL, Reason: be.Reason, Err: be.Err}
}

// BrowserAvailable is nil when a browser is installed for "Read with a
// browser", else an error that says what to install.
func (s *Service) BrowserAvailable() error { return BrowserError(s.browser().Available(), "") }

// browserSiteKey is the settings key remembering whether a site's searches
// read with a browser.
func browserSiteKey(site string) string { return "browser-site:" + site }

// BrowserDefault reports whether a new search of rawURL's site reads with a
// browser by default: as the site's last added or edited search did.
func (s *Service) BrowserDefault(rawURL string) bool {
	site, _, err := words.SearchSite(rawURL)
	if err != nil || s.db == nil {
		return false
	}
	var on bool
	if ok, err := s.db.GetSetting(browserSiteKey(site), &on); err != nil || !ok {
		return false
	}
	return on
}

// rememberBrowser keeps the site's choice for its next new search.
func (s *Service) rememberBrowser(site string, on bool) {
	if s.db == nil {
		return
	}
	if err := s.db.PutSetting(browserSiteKey(site), on); err != nil {
		s.log.Warn("could not remember the site's browser choice", "site", site, "err", err)
	}
}

// offerBrowser is "Test this search" on a page that plain reading found no
// results on although it runs scripts (an empty shell the scripts fill in):
// it reads the page once more with a browser and says what differs.
func (s *Service) offerBrowser(ctx context.Context, j job, dr *model.DryRun, res result) {
	dr.Browser = j.browser
	if j.browser || res.outcome.Kind != model.OutcomeUnexpectedPage || res.resp == nil || !hasScripts(res.resp.Body) {
		return
	}
	if err := s.BrowserAvailable(); err != nil {
		dr.BrowserNote = "This page builds its results with scripts; a browser might read it, but " + err.Error()
		return
	}
	j.browser = true
	bres := s.execute(ctx, j)
	defer bres.resp.Release()
	try := dryRunOf(model.DryRun{URL: dr.URL, Site: dr.Site, Browser: true}, bres)
	dr.BrowserTry = &try
	dr.BrowserNote = browserDifference(try)
}

// hasScripts reports whether a page runs scripts of its own.
func hasScripts(body []byte) bool {
	return strings.Contains(strings.ToLower(string(body)), "<script")
}

// browserDifference says what reading with a browser changed, for the user.
func browserDifference(try model.DryRun) string {
	if try.Outcome == model.OutcomeOK {
		return fmt.Sprintf("Without a browser Notifio found no results on this page; read with a browser it found %d listings. "+
			"Tick \u201cRead with a browser\u201d to watch it that way.", len(try.Listings))
	}
	return "A browser did not find results on this page either: " + try.Message
}
