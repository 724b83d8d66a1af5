package protocol

import (
	"errors"
	"fmt"
	"slices"
)

// Code is a machine-readable error code.
type Code string

// The error codes (docs/errors.md, "Errors"). Anything unknown maps
// to CodeInternal.
const (
	CodeStaleRef        Code = "stale_ref"
	CodeUnknownRef      Code = "unknown_ref"
	CodeMeaningChanged  Code = "meaning_changed"
	CodeNotActionable   Code = "not_actionable"
	CodeInvalidLocator  Code = "invalid_locator"
	CodeDocumentChanged Code = "document_changed"
	CodeEpochSuperseded Code = "epoch_superseded"
	CodeHostLost        Code = "host_lost"
	CodeNoBrowser       Code = "no_browser"
	CodeTooLarge        Code = "too_large"
	CodeBadRequest      Code = "bad_request"
	CodeTimeout         Code = "timeout"
	CodeInternal        Code = "internal"
	// The person's controls (docs/person.md, "The person's controls").
	CodePaused       Code = "paused"        // the person paused agents
	CodePolicy       Code = "policy"        // the person's policy file refuses it
	CodeNotConfirmed Code = "not_confirmed" // the person denied, or did not answer in time
	// CodeDownloadFailed: a download the agent waited for was interrupted;
	// the message carries Chrome's reason.
	CodeDownloadFailed Code = "download_failed"
	// CodeNavigationFailed: a page did not load; Status carries the
	// network error (net::ERR_…) or the HTTP status ("404").
	CodeNavigationFailed Code = "navigation_failed"
	// Targets written as a snapshot line reads (`button 'Save'`): no
	// element of the tab matches, or more than one does.
	CodeNotFound  Code = "not_found"
	CodeAmbiguous Code = "ambiguous"
	// CodeReplayDiverged: a recorded workflow's step no longer matches the
	// page; nothing after it was done (docs/workflows.md, "Recorded
	// workflows").
	CodeReplayDiverged Code = "replay_diverged"
	// CodeNotYourTab: the tab belongs to another agent session
	// (docs/person.md, "The person's controls").
	CodeNotYourTab Code = "not_your_tab"
	// CodeSessionEnded: the person ended the session's access from the
	// popup (docs/sessions.md, "Sessions").
	CodeSessionEnded Code = "session_ended"
)

// Boundary names the check that refused an operation.
type Boundary string

// The boundaries of the checks in the page (docs/acting.md, "Acting
// on a ref"), plus the ones outside the page: the wire
// (payload), the host's ref table (ref) and the browser connection.
const (
	BoundaryTask          Boundary = "task"
	BoundaryDocument      Boundary = "document"
	BoundaryNode          Boundary = "node"
	BoundaryMeaning       Boundary = "meaning"
	BoundaryActionability Boundary = "actionability"
	BoundaryPoint         Boundary = "point"
	BoundaryPayload       Boundary = "payload"
	BoundaryRef           Boundary = "ref"
	BoundaryBrowser       Boundary = "browser"
	BoundaryHost          Boundary = "host"
	BoundaryUser          Boundary = "user"   // the person's own switch (pause, confirm)
	BoundaryPolicy        Boundary = "policy" // the person's policy file
	// BoundarySession: the agent session a request belongs to (its own
	// tabs, the person's, another session's).
	BoundarySession Boundary = "session"
	// BoundaryPage: what the page shows as a whole (a target written as a
	// snapshot line, a recorded workflow's step) did not match.
	BoundaryPage Boundary = "page"
)

// Error is a refusal or failure that crosses a wire. It is a value: the
// host, the extension and the CLI all build and read the same four fields.
type Error struct {
	Code     Code     `json:"code"`
	Boundary Boundary `json:"boundary,omitempty"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"`
	// Dialog is the JavaScript dialog that stopped the operation, when one
	// did: answer it with grip dialog accept|dismiss.
	Dialog *Dialog `json:"dialog,omitempty"`
	// Status is why a navigation failed (CodeNavigationFailed): Chrome's
	// network error ("net::ERR_CONNECTION_REFUSED") or the HTTP status
	// the page answered ("404").
	Status string `json:"status,omitempty"`
	// Tab is the tab a failed tabs new opened and left open on the page
	// that did not load: the agent reads or closes it.
	Tab int `json:"tab,omitempty"`
}

// Error formats the error the way the CLI prints it on stderr, without the
// "grip: " prefix: "<code>: <message> (<hint>)".
func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Message
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Is lets errors.Is match two *Error values by code alone, so callers can
// test errors.Is(err, protocol.ErrStaleRef).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == ""
}

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, boundary Boundary, hint, format string, args ...any) *Error {
	return &Error{Code: code, Boundary: boundary, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Sentinels for errors.Is; they match any *Error with the same code.
var (
	ErrStaleRef        = &Error{Code: CodeStaleRef}
	ErrUnknownRef      = &Error{Code: CodeUnknownRef}
	ErrMeaningChanged  = &Error{Code: CodeMeaningChanged}
	ErrNotActionable   = &Error{Code: CodeNotActionable}
	ErrInvalidLocator  = &Error{Code: CodeInvalidLocator}
	ErrDocumentChanged = &Error{Code: CodeDocumentChanged}
	ErrEpochSuperseded = &Error{Code: CodeEpochSuperseded}
	ErrHostLost        = &Error{Code: CodeHostLost}
	ErrNoBrowser       = &Error{Code: CodeNoBrowser}
	ErrTooLarge        = &Error{Code: CodeTooLarge}
	ErrBadRequest      = &Error{Code: CodeBadRequest}
	ErrPaused          = &Error{Code: CodePaused}
	ErrPolicy          = &Error{Code: CodePolicy}
	ErrNotFound        = &Error{Code: CodeNotFound}
	ErrAmbiguous       = &Error{Code: CodeAmbiguous}
	ErrReplayDiverged  = &Error{Code: CodeReplayDiverged}
	ErrNotYourTab      = &Error{Code: CodeNotYourTab}
	ErrSessionEnded    = &Error{Code: CodeSessionEnded}
	ErrNotConfirmed    = &Error{Code: CodeNotConfirmed}
)

// AsError turns any error into an *Error: an *Error in the chain is
// returned as is, anything else becomes CodeInternal with its text.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		if !KnownCode(pe.Code) {
			c := *pe
			c.Code = CodeInternal
			return &c
		}
		return pe
	}
	return &Error{Code: CodeInternal, Boundary: BoundaryHost, Message: err.Error()}
}

// Codes lists every code above (a test reads this file to check): the
// extension's declaration file (extension/protocol.d.ts) has them as a
// union, so tsc refuses a misspelt one in the worker or the kernel.
var Codes = []Code{
	CodeStaleRef, CodeUnknownRef, CodeMeaningChanged, CodeNotActionable,
	CodeInvalidLocator, CodeDocumentChanged, CodeEpochSuperseded, CodeHostLost,
	CodeNoBrowser, CodeTooLarge, CodeBadRequest, CodeTimeout, CodeInternal,
	CodePaused, CodePolicy, CodeNotConfirmed, CodeDownloadFailed, CodeNavigationFailed,
	CodeNotFound, CodeAmbiguous, CodeReplayDiverged, CodeNotYourTab, CodeSessionEnded,
}

// Boundaries lists every boundary above, for the same union.
var Boundaries = []Boundary{
	BoundaryTask, BoundaryDocument, BoundaryNode, BoundaryMeaning, BoundaryActionability,
	BoundaryPoint, BoundaryPayload, BoundaryRef, BoundaryBrowser, BoundaryHost,
	BoundaryUser, BoundaryPolicy, BoundarySession, BoundaryPage,
}

// KnownCode reports whether c is one of the codes above.
func KnownCode(c Code) bool { return slices.Contains(Codes, c) }

// Codec errors, checked with errors.Is.
var (
	// ErrFrameTooLarge is returned when a frame's length exceeds the limit
	// of its direction; nothing of it is read or written.
	ErrFrameTooLarge = errors.New("protocol: frame too large")
	// ErrShortFrame is returned when the stream ends inside a frame.
	ErrShortFrame = errors.New("protocol: truncated frame")
	// ErrEmptyFrame is returned for a zero-length frame, which neither wire allows.
	ErrEmptyFrame = errors.New("protocol: empty frame")
	// ErrTooDeep is returned for a socket message whose containers nest
	// more than MaxDepth deep; nothing of it is decoded.
	ErrTooDeep = errors.New("protocol: msgpack nested too deep")
	// ErrBadMsgpack is returned for a socket message that is not one
	// well-formed msgpack value, or claims more than its bytes hold;
	// nothing of it is decoded.
	ErrBadMsgpack = errors.New("protocol: malformed msgpack")
)
