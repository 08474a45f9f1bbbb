package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// ErrUnauthorized is a daemon refusing the client's token.
var ErrUnauthorized = errors.New("unauthorized")

// Client is a host's side of the REST door: it reads and answers asks on a
// running daemon (`gatehouse list-asks|allow|deny --server URL`). Its
// errors wrap the ledger's own, so callers test them exactly as they test a
// local ledger: errors.Is(err, decisions.ErrNotFound) for 404,
// decisions.ErrAlreadyAnswered for 409, decisions.ErrInvalid for 422, and
// ErrUnauthorized for 401.
type Client struct {
	BaseURL string // "http://127.0.0.1:7878"
	Token   string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
}

// NewClient returns a client for the daemon at baseURL holding the host
// token of the ledger at ledgerPath (see ReadToken). A bare "host:port"
// means http://host:port.
func NewClient(baseURL, ledgerPath string) (*Client, error) {
	token, err := ReadToken(ledgerPath)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(baseURL, "://") {
		baseURL = "http://" + baseURL
	}
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token}, nil
}

// ListAsks returns the pending asks, oldest first, or every decision with
// all; sessionID "" means every session.
func (c *Client) ListAsks(ctx context.Context, sessionID string, all bool) ([]decisions.Record, error) {
	q := url.Values{}
	if sessionID != "" {
		q.Set("session_id", sessionID)
	}
	if all {
		q.Set("all", "1")
	}
	path := "/v1/asks"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var recs []decisions.Record
	if err := c.do(ctx, http.MethodGet, path, nil, &recs); err != nil {
		return nil, err
	}
	return recs, nil
}

// GetAsk returns one ask.
func (c *Client) GetAsk(ctx context.Context, id string) (decisions.Record, error) {
	var rec decisions.Record
	err := c.do(ctx, http.MethodGet, "/v1/asks/"+url.PathEscape(id), nil, &rec)
	return rec, err
}

// Allow answers an ask allow, with scope once ("" too) or session, and
// returns the settled record.
func (c *Client) Allow(ctx context.Context, id, scope, note string) (decisions.Record, error) {
	return c.Answer(ctx, id, decisions.Answer{Outcome: decisions.Allow, Scope: scope, Note: note})
}

// Deny refuses an ask (deny answers once, G-9.5) and returns the settled
// record.
func (c *Client) Deny(ctx context.Context, id, note string) (decisions.Record, error) {
	return c.Answer(ctx, id, decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Once, Note: note})
}

// Answer gives a.Outcome ("allow" or "deny") with a.Scope and a.Note, the
// shape decisions.Ledger.Answer takes, so a caller can hold either door.
// a.By is not sent: the daemon records REST answers as "rest:ADDRESS".
func (c *Client) Answer(ctx context.Context, id string, a decisions.Answer) (decisions.Record, error) {
	if a.Outcome != decisions.Allow && a.Outcome != decisions.Deny {
		return decisions.Record{}, fmt.Errorf("answer %s: %w: outcome %q is not allow or deny", id, decisions.ErrInvalid, a.Outcome)
	}
	body, _ := json.Marshal(answerBody{Scope: a.Scope, Note: a.Note})
	var rec decisions.Record
	err := c.do(ctx, http.MethodPost, "/v1/asks/"+url.PathEscape(id)+"/"+a.Outcome, body, &rec)
	return rec, err
}

// AllowAmend allows ask id once and writes the exception for exactly its
// command into the workspace document (POST /v1/asks/{id}/amend); it
// returns the settled record and the change as a unified diff.
func (c *Client) AllowAmend(ctx context.Context, id string, a decisions.Answer) (decisions.Record, string, error) {
	body, _ := json.Marshal(answerBody{Note: a.Note})
	var out Amended
	err := c.do(ctx, http.MethodPost, "/v1/asks/"+url.PathEscape(id)+"/amend", body, &out)
	return out.Ask, out.Amendment.Diff, err
}

// StatusError is a response other than 200/201, with the daemon's message.
// It unwraps to the ledger error the status stands for.
type StatusError struct {
	Status  int
	Message string
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("gatehouse daemon: %s", http.StatusText(e.Status))
	}
	return e.Message
}

// Unwrap maps the status back to the error the daemon mapped it from.
func (e *StatusError) Unwrap() error {
	switch e.Status {
	case http.StatusNotFound:
		return decisions.ErrNotFound
	case http.StatusConflict:
		return decisions.ErrAlreadyAnswered
	case http.StatusUnprocessableEntity:
		return decisions.ErrInvalid
	case http.StatusPreconditionFailed:
		return core.ErrDocumentChanged
	case http.StatusUnauthorized:
		return ErrUnauthorized
	}
	return nil
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, into any) error {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, reader)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		var eb errorBody
		_ = json.Unmarshal(data, &eb)
		return &StatusError{Status: resp.StatusCode, Message: eb.Error}
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("gatehouse daemon: reading %s %s: %w", method, path, err)
	}
	return nil
}
