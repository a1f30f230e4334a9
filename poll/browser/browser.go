// Package browser reads pages in the user's own Chromium-based browser (Chrome,
// Chromium, Edge or Brave; never one that Notifio downloads), for portals whose
// results only appear when JavaScript runs, and opens a visible window of it
// for checks that the user solves themselves.
//
// One headless browser process is shared by every render, with Notifio's own
// profile folder; each render is a tab of its own, has a deadline, and loads no
// images, fonts or media. The process is closed when idle and restarted when it
// grew past a memory bound. What it returns is the main document's status and
// headers and the DOM after the scripts ran: poll classifies and extracts it as
// it does a plain fetch, so the site's backoff sees one request per render.
package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"notifio/poll/fetch"
)

// Defaults used where Options leaves a field zero.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultIdleTimeout = 3 * time.Minute
	DefaultMaxMemory   = 1 << 30 // all the browser's processes together
	DefaultMaxRenders  = 200
	// DefaultMaxBody and DefaultAcceptLanguage are plain fetches' (poll/fetch):
	// a page read in the browser is capped and asked for as a fetched one.
	DefaultMaxBody        = fetch.DefaultMaxBody
	DefaultAcceptLanguage = fetch.DefaultAcceptLanguage
)

// Options configure a Browser. Zero fields take the defaults above.
type Options struct {
	// ExecPath is the browser to run; "" means Find.
	ExecPath string
	// ProfileDir is Notifio's own browser profile (the cookies of solved
	// checks are kept there). "" means a fresh temporary profile per launch.
	ProfileDir string
	// Timeout bounds one render, browser start included; an earlier deadline
	// of the caller's context wins.
	Timeout time.Duration
	// IdleTimeout closes the browser after this long without a render.
	IdleTimeout time.Duration
	// MaxMemory restarts the browser, between renders, once its processes
	// together use more than this many bytes (measured on Linux; elsewhere
	// MaxRenders is the bound).
	MaxMemory int64
	// MaxRenders restarts the browser after this many renders.
	MaxRenders int
	// MaxBody caps the rendered HTML in bytes.
	MaxBody int
	// AcceptLanguage is sent with every request of a render.
	AcceptLanguage string
	// SolveHeadless opens the "solve it" window without showing it: for tests
	// and machines without a display, where the check is clicked through by
	// a program.
	SolveHeadless bool
	// Logger receives the browser's logs; nil means slog.Default().
	Logger *slog.Logger
}

// Request is one page to render.
type Request struct {
	URL string
	// Cookie is a Cookie header the user pasted for this site (optional).
	Cookie string
}

// Page is one rendered page.
type Page struct {
	RequestURL *url.URL
	// FinalURL is the main document's URL after the redirects the browser followed.
	FinalURL *url.URL
	// Status and Header are the main document's, as the site sent them.
	Status int
	Header http.Header
	// HTML is the DOM after the page's scripts ran, serialised.
	HTML    []byte
	Elapsed time.Duration
	// Blocked is how many image, font and media requests were not made.
	Blocked int
	// Redirect is set when the page tried to leave the site (a redirect, or
	// a script sending the tab to another site) and was stopped: HTML is
	// then empty, as the plain fetcher returns the refused redirect.
	Redirect *fetch.RedirectStop
}

// Error is a render that failed, in words for the user.
type Error struct {
	URL    string
	Reason string // e.g. "the page did not finish loading in the browser within 30s"
	Err    error
}

func (e *Error) Error() string {
	msg := "browser: " + e.URL + ": " + e.Reason
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// ErrClosed is returned by Render and Solve after Close.
var ErrClosed = errors.New("browser: closed")

// ErrWindowOpen is returned by Solve while a window for solving a check is
// open already.
var ErrWindowOpen = errors.New("browser: a window for solving a check is already open")

// Browser renders pages in one shared browser process. It is safe for
// concurrent use; renders run in parallel, each in its own tab. Close it when
// done: that ends the process.
type Browser struct {
	opts Options
	log  *slog.Logger

	mu   sync.Mutex
	cond *sync.Cond // signalled when active drops or a solve window ends
	proc *process   // nil when no browser runs
	// active counts renders in flight; renders counts those since the launch.
	active, renders int
	idle            *time.Timer
	// solving is set while a "solve it" window has the profile: renders wait.
	solving bool
	// solved holds, per site, the cookies of the last solved check: they go
	// into every render of that site (session cookies are not on disk).
	solved map[string][]*network.CookieParam
	closed bool
}

// process is one running browser.
type process struct {
	allocCancel context.CancelFunc
	ctx         context.Context // the browser's first tab; renders open tabs beside it
	cancel      context.CancelFunc
	ua          string
}

// New returns a Browser; nothing starts until the first render.
func New(opts Options) *Browser {
	fetch.Default(&opts.Timeout, DefaultTimeout)
	fetch.Default(&opts.IdleTimeout, DefaultIdleTimeout)
	fetch.Default(&opts.MaxMemory, DefaultMaxMemory)
	fetch.Default(&opts.MaxRenders, DefaultMaxRenders)
	fetch.Default(&opts.MaxBody, DefaultMaxBody)
	fetch.Default(&opts.AcceptLanguage, DefaultAcceptLanguage)
	b := &Browser{opts: opts, log: opts.Logger, solved: map[string][]*network.CookieParam{}}
	if b.log == nil {
		b.log = slog.Default()
	}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Available reports whether a browser is installed, as the error the user
// sees when none is (a *NotInstalledError).
func (b *Browser) Available() error {
	_, err := b.execPath()
	return err
}

func (b *Browser) execPath() (string, error) {
	if b.opts.ExecPath != "" {
		return b.opts.ExecPath, nil
	}
	return Find()
}

// Running reports whether a browser process is up.
func (b *Browser) Running() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.proc != nil
}

// Close ends the browser process and waits for it. Renders in flight fail.
func (b *Browser) Close() {
	b.mu.Lock()
	b.closed = true
	p := b.proc
	b.proc = nil
	if b.idle != nil {
		b.idle.Stop()
	}
	b.cond.Broadcast()
	b.mu.Unlock()
	p.stop()
}

// allocatorOptions are the flags of every launch: Notifio's profile, no
// sandbox when running as root (Chromium refuses to start otherwise).
func (b *Browser) allocatorOptions(path string, visible bool) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:0:0], chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts, chromedp.ExecPath(path),
		// Less work and memory per render: no GPU process, no extensions'
		// background pages, no sound.
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("blink-settings", "imagesEnabled=false"),
		// chromedp's defaults turn the pop-up blocker off: a page opening
		// twenty windows made twenty more requests to the site. A render is
		// one request.
		chromedp.Flag("disable-popup-blocking", false),
	)
	if visible {
		opts = append(opts, chromedp.VisibleWindow, chromedp.Flag("blink-settings", "imagesEnabled=true"))
	}
	if b.opts.ProfileDir != "" {
		opts = append(opts, chromedp.UserDataDir(b.opts.ProfileDir))
	}
	if os.Geteuid() == 0 { // -1 on Windows
		opts = append(opts, chromedp.NoSandbox)
	}
	return opts
}

// launch starts a headless browser. Called with b.mu held.
func (b *Browser) launch() (*process, error) {
	path, err := b.execPath()
	if err != nil {
		return nil, err
	}
	if b.opts.ProfileDir != "" {
		if err := os.MkdirAll(b.opts.ProfileDir, 0o700); err != nil {
			return nil, fmt.Errorf("browser: create the profile folder: %w", err)
		}
	}
	p, err := b.start(b.allocatorOptions(path, false))
	if err != nil {
		return nil, err
	}
	v, err := chromedp.CallBrowser(p.ctx, browser.GetVersion, cdp.Empty{})
	if err == nil {
		// The headless browser names itself HeadlessChrome; sites serve their
		// normal page to the browser the user has.
		p.ua = strings.Replace(v.UserAgent, "HeadlessChrome", "Chrome", 1)
	}
	b.log.Info("browser started", "path", path, "user_agent", p.ua)
	return p, nil
}

// start runs a browser with the allocator options and opens its first tab.
func (b *Browser) start(opts []chromedp.ExecAllocatorOption) (*process, error) {
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx,
		chromedp.WithErrorf(func(f string, a ...any) { b.log.Debug("browser: " + fmt.Sprintf(f, a...)) }),
		chromedp.WithLogf(func(f string, a ...any) { b.log.Debug("browser: " + fmt.Sprintf(f, a...)) }))
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		allocCancel()
		return nil, fmt.Errorf("browser: start the browser: %w", err)
	}
	// A watched page never saves a file on the user's computer (an <a
	// download> it clicks, a frame answering with an attachment): Chromium
	// would put it in ~/Downloads, creating the folder.
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior,
		browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDeny}); err != nil {
		cancel()
		allocCancel()
		return nil, fmt.Errorf("browser: turn downloads off: %w", err)
	}
	return &process{allocCancel: allocCancel, ctx: ctx, cancel: cancel}, nil
}

// stop closes the browser and waits until its processes are gone.
func (p *process) stop() {
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	_ = chromedp.Cancel(ctx) // a graceful close: the profile's cookies are written
	cancel()
	p.cancel()
	p.allocCancel() // waits for the process to exit
}

// acquire returns the running browser for one render, starting it when needed.
// It waits while a "solve it" window holds the profile.
func (b *Browser) acquire(ctx context.Context) (*process, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.solving {
		stop := context.AfterFunc(ctx, func() {
			b.mu.Lock()
			b.cond.Broadcast()
			b.mu.Unlock()
		})
		for b.solving && ctx.Err() == nil && !b.closed {
			b.cond.Wait()
		}
		stop()
		if ctx.Err() != nil {
			return nil, &Error{Reason: "the browser window for solving a check was still open", Err: ctx.Err()}
		}
	}
	if b.closed {
		return nil, ErrClosed
	}
	if b.proc == nil {
		p, err := b.launch()
		if err != nil {
			return nil, err
		}
		b.proc, b.renders = p, 0
	}
	if b.idle != nil {
		b.idle.Stop()
	}
	b.active++
	return b.proc, nil
}

// release ends one render: the browser is restarted when it grew too big or
// served enough renders, and closed when nothing used it for IdleTimeout.
// A browser is stopped with b.mu held: the next launch uses the same profile,
// which only one browser at a time may have.
func (b *Browser) release(p *process) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.active--
	b.renders++
	if b.active == 0 && b.proc == p {
		if b.renders >= b.opts.MaxRenders || b.overMemory(p) {
			b.log.Info("browser restarted to free memory", "renders", b.renders, "memory_bytes", p.memory())
			b.proc = nil
			p.stop()
		} else {
			b.idle = time.AfterFunc(b.opts.IdleTimeout, b.closeIdle)
		}
	}
	b.cond.Broadcast()
}

// closeIdle closes the browser when no render is in flight.
func (b *Browser) closeIdle() {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.proc
	if b.active > 0 || p == nil {
		return
	}
	b.proc = nil
	b.log.Info("browser closed: idle")
	p.stop()
}

// overMemory reports whether the browser's processes use more than MaxMemory.
func (b *Browser) overMemory(p *process) bool {
	rss := p.memory()
	return rss > b.opts.MaxMemory
}

// memory is the resident memory of the browser's processes together (0 where
// the system does not tell).
func (p *process) memory() int64 {
	c := chromedp.FromContext(p.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	return treeRSS(c.Browser.Process().Pid)
}

// Memory is the resident memory of the running browser's processes together,
// in bytes (0 when none runs, or where the system does not tell).
func (b *Browser) Memory() int64 {
	b.mu.Lock()
	p := b.proc
	b.mu.Unlock()
	if p == nil {
		return 0
	}
	return p.memory()
}
