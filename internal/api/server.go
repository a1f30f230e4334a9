package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"notifio/internal/model"
)

// Server serves the API over a watcher and its delivery. It is safe for
// concurrent use.
type Server struct {
	w    Watcher
	d    Delivery
	info Info
	log  *slog.Logger
	mux  *http.ServeMux

	mu   sync.Mutex
	quit func() // stops the watcher (OnQuit); nil: it cannot be quit over the socket
}

// NewServer is the API over w and d; info says who answers (its API field is
// set here).
func NewServer(w Watcher, d Delivery, info Info, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	info.API = Version
	s := &Server{w: w, d: d, info: info, log: log, mux: http.NewServeMux()}
	s.routes()
	return s
}

// OnQuit sets what POST /v1/quit calls: the watcher's own stop, the one
// SIGTERM triggers (cancel polling, let the relays finish their item, remove
// the socket, close the database). It must not block; call it before Serve.
func (s *Server) OnQuit(quit func()) {
	s.mu.Lock()
	s.quit = quit
	s.mu.Unlock()
}

// Serve answers on l until ctx ends, then closes l and waits for requests in
// flight (a stream of snapshots ends with ctx).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	err := hs.Serve(l)
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ServeHTTP answers one request, every answer marked with the API version.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(HeaderAPI, strconv.Itoa(Version))
	w.Header().Set(HeaderVersion, s.info.Version)
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /v1/info", func(w http.ResponseWriter, r *http.Request) { reply(w, s.info, nil) })
	m.HandleFunc("GET /v1/snapshot", func(w http.ResponseWriter, r *http.Request) { reply(w, s.w.Snapshot(), nil) })
	m.HandleFunc("GET /v1/events", s.events)
	m.HandleFunc("POST /v1/quit", s.quitting)
	s.searchRoutes()
	s.siteRoutes()
	s.deliveryRoutes()
	m.HandleFunc("/", s.unknown)
}

// quitting answers POST /v1/quit, then stops the watcher: the answer goes out
// first, as the server's shutdown waits for this request to end.
func (s *Server) quitting(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	quit := s.quit
	s.mu.Unlock()
	if quit == nil {
		writeError(w, http.StatusConflict, &Error{Kind: "user", Message: "This watcher cannot be stopped from here.",
			Hint: "Stop it where it was started (Ctrl-C where \"notifio run\" runs)."})
		return
	}
	reply(w, Quitting{PID: s.info.PID}, nil)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
	s.log.Info("asked to quit over the control API")
	quit()
}

// unknown answers a path of another API version, or none, in words.
func (s *Server) unknown(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, &Error{Kind: "version", Cause: "version",
		Message: fmt.Sprintf("The running Notifio watcher (version %s) does not know %s %s.", s.info.Version, r.Method, r.URL.Path),
		Hint:    "The window or command and the watcher are different versions of Notifio: quit the watcher and start it again from this version."})
}

// events streams snapshots as server-sent events: the current one at once,
// then one after each change. A slow reader gets the newest, never a backlog.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, &Error{Kind: "internal", Message: "api: streaming is not supported"})
		return
	}
	latest := make(chan model.Snapshot, 1)
	offer := func(snap model.Snapshot) {
		for {
			select {
			case latest <- snap:
				return
			default:
			}
			select { // drop the older one still waiting
			case <-latest:
			default:
			}
		}
	}
	offer(s.w.Snapshot())
	cancel := s.w.Subscribe(offer)
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case snap := <-latest:
			raw, err := json.Marshal(snap)
			if err != nil {
				s.log.Error("api: encode a snapshot", "err", err)
				return
			}
			if _, err := fmt.Fprintf(w, "data: %s\n\n", raw); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// reply writes v as JSON, or err typed (status 200 for the typed errors the
// user acts on would hide them: they get 4xx, the others 500).
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		we := wireError(err)
		status := http.StatusInternalServerError
		switch we.Kind {
		case "user", "fields":
			status = http.StatusBadRequest
		case "wait":
			status = http.StatusConflict
		}
		writeError(w, status, we)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if v == nil {
		v = struct{}{}
	}
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, e *Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Error *Error `json:"error"`
	}{e})
}

// decode reads a request body into v; a body that is not v is the caller's
// mistake, in words.
func decode(r *http.Request, v any) error {
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 4<<20)).Decode(v); err != nil {
		return &model.UserError{Msg: "The watcher could not read the request.", Hint: "Use the same version of Notifio for the watcher and the window or command.", Err: err}
	}
	return nil
}
