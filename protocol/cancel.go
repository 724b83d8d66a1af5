package protocol

// OpCancel ends a request of the same connection that its client gave up
// on (an MCP client's notifications/cancelled, a context's deadline):
// the host cancels that request's context, so a question to the person, a
// wait or an action not yet begun ends there too instead of going on
// behind the client's back. Its reply is an empty map; an id that is not in
// flight (done already, or another connection's) is no error.
const OpCancel = "cancel" // CancelArgs → {}

// CancelArgs names the request to end by its id on this connection.
type CancelArgs struct {
	Request uint64 `json:"request"`
}
