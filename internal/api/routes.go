package api

import (
	"net/http"
	"time"

	"notifio/internal/model"
)

// The handlers are thin: read the request, call the operation, answer.

func (s *Server) searchRoutes() {
	m := s.mux
	m.HandleFunc("POST /v1/searches", func(w http.ResponseWriter, r *http.Request) {
		var in model.SearchInput
		if err := decode(r, &in); err != nil {
			reply(w, nil, err)
			return
		}
		to(w)(s.w.AddSearch(r.Context(), in))
	})
	m.HandleFunc("GET /v1/searches/{id}", func(w http.ResponseWriter, r *http.Request) {
		to(w)(s.w.Search(r.PathValue("id")))
	})
	m.HandleFunc("PUT /v1/searches/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in model.SearchInput
		if err := decode(r, &in); err != nil {
			reply(w, nil, err)
			return
		}
		to(w)(s.w.UpdateSearch(r.Context(), r.PathValue("id"), in))
	})
	m.HandleFunc("DELETE /v1/searches/{id}", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, s.w.RemoveSearch(r.PathValue("id")))
	})
	m.HandleFunc("PUT /v1/searches/{id}/paused", func(w http.ResponseWriter, r *http.Request) {
		var p Paused
		if err := decode(r, &p); err != nil {
			reply(w, nil, err)
			return
		}
		reply(w, nil, s.w.SetPaused(r.PathValue("id"), p.Paused))
	})
	m.HandleFunc("PUT /v1/paused", func(w http.ResponseWriter, r *http.Request) {
		var p Paused
		if err := decode(r, &p); err != nil {
			reply(w, nil, err)
			return
		}
		reply(w, nil, s.w.PauseAll(p.Paused))
	})
	m.HandleFunc("POST /v1/searches/{id}/check", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, s.w.CheckNow(r.PathValue("id")))
	})
	m.HandleFunc("POST /v1/test", func(w http.ResponseWriter, r *http.Request) {
		var in model.SearchInput
		if err := decode(r, &in); err != nil {
			reply(w, nil, err)
			return
		}
		to(w)(s.w.TestSearch(r.Context(), in))
	})
	m.HandleFunc("GET /v1/site-rate", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		interval, _ := time.ParseDuration(q.Get("interval"))
		per, warn := s.w.SiteRate(q.Get("url"), interval, q.Get("except"))
		reply(w, SiteRate{PerMinute: per, Warning: warn}, nil)
	})
	m.HandleFunc("GET /v1/searches/{id}/listings", func(w http.ResponseWriter, r *http.Request) {
		to(w)(s.w.Listings(r.PathValue("id")))
	})
	m.HandleFunc("POST /v1/searches/{id}/viewed", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, s.w.MarkViewed(r.PathValue("id")))
	})
	m.HandleFunc("GET /v1/searches/{id}/held", func(w http.ResponseWriter, r *http.Request) {
		to(w)(s.w.HeldNowPassing(r.PathValue("id")))
	})
	m.HandleFunc("POST /v1/searches/{id}/show-held", func(w http.ResponseWriter, r *http.Request) {
		var ls []model.Listing
		if err := decode(r, &ls); err != nil {
			reply(w, nil, err)
			return
		}
		n, err := s.w.ShowHeld(r.PathValue("id"), ls)
		reply(w, Count{Count: n}, err)
	})
}

func (s *Server) siteRoutes() {
	m := s.mux
	m.HandleFunc("POST /v1/sites/{site}/probe", func(w http.ResponseWriter, r *http.Request) {
		at, err := s.w.ProbeNow(r.PathValue("site"))
		reply(w, ProbeAt{At: at}, err)
	})
	m.HandleFunc("POST /v1/sites/{site}/solve", s.solve)
	m.HandleFunc("POST /v1/sites/{site}/solve/done", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, s.w.SolveDone(r.PathValue("site")))
	})
	m.HandleFunc("GET /v1/sites/{site}/refusal-page", func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.w.RefusalPage(r.PathValue("site"))
		reply(w, RefusalPage{Path: p, OK: ok}, nil)
	})
	m.HandleFunc("GET /v1/browser", func(w http.ResponseWriter, r *http.Request) {
		var st BrowserState
		if err := s.w.BrowserAvailable(); err != nil {
			st.Problem = wireError(err)
		}
		reply(w, st, nil)
	})
	m.HandleFunc("GET /v1/browser-default", func(w http.ResponseWriter, r *http.Request) {
		reply(w, BrowserDefault{Browser: s.w.BrowserDefault(r.URL.Query().Get("url"))}, nil)
	})
	m.HandleFunc("GET /v1/alert-settings", func(w http.ResponseWriter, r *http.Request) {
		reply(w, s.w.AlertSettings(), nil)
	})
	m.HandleFunc("PUT /v1/alert-settings", func(w http.ResponseWriter, r *http.Request) {
		var a model.AlertSettings
		if err := decode(r, &a); err != nil {
			reply(w, nil, err)
			return
		}
		reply(w, nil, s.w.SetAlertSettings(a))
	})
	m.HandleFunc("GET /v1/desktop-notifications", func(w http.ResponseWriter, r *http.Request) {
		on, err := s.w.DesktopNotifications()
		reply(w, DesktopNotifications{On: on}, err)
	})
	m.HandleFunc("PUT /v1/desktop-notifications", func(w http.ResponseWriter, r *http.Request) {
		var d DesktopNotifications
		if err := decode(r, &d); err != nil {
			reply(w, nil, err)
			return
		}
		reply(w, nil, s.w.SetDesktopNotifications(d.On))
	})
}

// solve opens the browser window on the watcher's machine (the user's own,
// or the one the socket was forwarded from: the window opens where the
// watcher runs) and answers when the user closed it or pressed Done
// (POST …/solve/done).
func (s *Server) solve(w http.ResponseWriter, r *http.Request) {
	to(w)(s.w.SolveInBrowser(r.Context(), r.PathValue("site"), nil))
}

func (s *Server) deliveryRoutes() {
	m := s.mux
	m.HandleFunc("GET /v1/email", func(w http.ResponseWriter, r *http.Request) {
		to(w)(s.d.EmailConfig())
	})
	m.HandleFunc("PUT /v1/email", func(w http.ResponseWriter, r *http.Request) {
		var in EmailSet
		if err := decode(r, &in); err != nil {
			reply(w, nil, err)
			return
		}
		warn, err := s.d.SetEmailConfig(in.Config, in.Password)
		reply(w, Warning{Warning: warn}, err)
	})
	m.HandleFunc("POST /v1/email/test", func(w http.ResponseWriter, r *http.Request) {
		var in EmailSet
		if err := decode(r, &in); err != nil {
			reply(w, nil, err)
			return
		}
		reply(w, nil, s.d.SendTestEmail(r.Context(), in.Config, in.Password))
	})
	m.HandleFunc("POST /v1/email/retry", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, s.d.RetryOutbox())
	})
	m.HandleFunc("GET /v1/channels", func(w http.ResponseWriter, r *http.Request) {
		to(w)(s.d.Channels())
	})
	m.HandleFunc("POST /v1/channels", func(w http.ResponseWriter, r *http.Request) {
		var in model.NewChannel
		if err := decode(r, &in); err != nil {
			reply(w, nil, err)
			return
		}
		ch, warn, err := s.d.AddChannel(in)
		reply(w, ChannelAdded{Channel: ch, Warning: warn}, err)
	})
	m.HandleFunc("POST /v1/channels/{name}/test", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, s.d.TestChannel(r.Context(), r.PathValue("name")))
	})
	m.HandleFunc("DELETE /v1/channels/{name}", func(w http.ResponseWriter, r *http.Request) {
		warn, err := s.d.RemoveChannel(r.PathValue("name"))
		reply(w, Warning{Warning: warn}, err)
	})
}

// to is reply for w, taking an operation's two results as they come.
func to(w http.ResponseWriter) func(v any, err error) {
	return func(v any, err error) { reply(w, v, err) }
}
