package rest

import (
	"errors"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// The daemon's agent routes take no token, and anything a browser can be
// made to send to 127.0.0.1 arrives as if a local agent sent it. So before
// any route sees a request, the daemon refuses (G-10.6):
//
//   - a Host it does not serve (421 Misdirected Request): a page whose DNS
//     name is rebound to 127.0.0.1 sends its own name as the Host, which is
//     neither a loopback name nor an address the daemon was told to serve;
//   - a browser request from a foreign origin (403): the daemon serves no
//     pages, so an Origin that is not the daemon's own, or a Sec-Fetch-Site
//     other than same-origin, is another site's page at work;
//   - a POST whose Content-Type is not JSON (415): a page can send a form or
//     text/plain cross-origin without asking first, but not JSON;
//   - a body larger than maxBodyBytes (413), before reading it.

// headerReadTimeout bounds how long a request's header may take to arrive
// (slowloris), bodyReadTimeout its body, so a client trickling bytes cannot
// hold a connection or a handler.
const (
	headerReadTimeout = 10 * time.Second
	bodyReadTimeout   = 30 * time.Second
)

// hostSet is the Host names and addresses a daemon answers to besides the
// loopback ones.
type hostSet struct {
	names map[string]bool // lower case, without port or brackets
	anyIP bool            // the daemon listens on every address
}

// withHost returns a copy of the set that also holds host; an unspecified
// address (0.0.0.0, ::) admits every IP literal, never a name.
func (h *hostSet) withHost(host string) *hostSet {
	out := &hostSet{names: map[string]bool{}, anyIP: h != nil && h.anyIP}
	if h != nil {
		for n := range h.names {
			out.names[n] = true
		}
	}
	host = normalHost(host)
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		out.anyIP = true
	} else if host != "" {
		out.names[host] = true
	}
	return out
}

// normalHost is a Host header's host part: lower case, without port,
// brackets or a trailing dot.
func normalHost(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	return strings.ToLower(host)
}

// serves reports whether a request for hostport is one this daemon
// answers: loopback names and addresses always, else only those it was
// told to serve.
func (h *hostSet) serves(hostport string) bool {
	host := normalHost(hostport)
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	if ip != nil && ip.IsLoopback() {
		return true
	}
	if h == nil {
		return false
	}
	return h.names[host] || (ip != nil && h.anyIP)
}

// hostsRef holds the set a running daemon answers to; Serve adds its
// listener's address while requests may be in flight.
type hostsRef struct{ p atomic.Pointer[hostSet] }

func (r *hostsRef) add(host string) {
	for {
		old := r.p.Load()
		if r.p.CompareAndSwap(old, old.withHost(host)) {
			return
		}
	}
}

// admit refuses a request no route should see, writing the answer; it
// reports whether the request may go on.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) bool {
	if !s.hosts.p.Load().serves(r.Host) {
		writeError(w, http.StatusMisdirectedRequest,
			"this daemon does not serve host "+strings.TrimSpace(r.Host)+": it answers to localhost, loopback addresses and the address it was started on")
		return false
	}
	if foreignOrigin(r) {
		writeError(w, http.StatusForbidden, "requests from another site's pages are refused: the daemon serves no pages, so no browser origin may call it")
		return false
	}
	if r.Method == http.MethodPost {
		if !isJSON(r.Header.Get("Content-Type")) {
			w.Header().Set("Accept-Post", "application/json")
			writeError(w, http.StatusUnsupportedMediaType, "request bodies are JSON: send Content-Type: application/json")
			return false
		}
		if r.ContentLength > maxBodyBytes {
			writeError(w, http.StatusRequestEntityTooLarge, tooLargeText)
			return false
		}
	}
	return true
}

// foreignOrigin reports a browser request made by another origin's page.
// Clients that are not browsers send neither header.
func foreignOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return true // "null" and other opaque origins
	}
	return !strings.EqualFold(u.Host, r.Host)
}

// isJSON reports whether a Content-Type names JSON: application/json or a
// +json type, with any parameters.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// tooLargeText is the error of a body over maxBodyBytes.
const tooLargeText = "request body too large: the limit is 1 MiB"

// errTooLarge is a body that went past maxBodyBytes while being read.
var errTooLarge = errors.New(tooLargeText)

// writeBodyError answers a body readBody refused: 413 when it was too
// large, else 400.
func writeBodyError(w http.ResponseWriter, err error) {
	if errors.Is(err, errTooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, err.Error())
		return
	}
	writeError(w, http.StatusBadRequest, err.Error())
}
