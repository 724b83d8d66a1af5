package protocol

// What a find (ActFind) and a scroll of a long list carry between the
// host and the kernel, and what their replies tell the agent
// (docs/long-lists.md, "Long lists").

// FindState carries one find across the kernel calls it takes: each call
// scrolls for a slice of the injection deadline and says where it stopped.
type FindState struct {
	// Steps is how many times the find has scrolled.
	Steps int `json:"steps"`
	// Start is where the scroller stood when the find began (px): after
	// the end the find goes on from the top to there.
	Start float64 `json:"start"`
	// Wrapped says the find reached the end and went on from the top.
	Wrapped bool `json:"wrapped"`
	// Begun marks a state an earlier call returned.
	Begun bool `json:"begun"`
}

// FindReply is the kernel's answer to one find call.
type FindReply struct {
	State FindState `json:"state"`
	// More says the call's slice ended before the search did: the host
	// calls again with State.
	More  bool `json:"more,omitempty"`
	Found bool `json:"found"`
	// IDs are the local ids of the element found and of those inside it,
	// in document order.
	IDs []int `json:"ids,omitempty"`
	// Around are the local ids of the elements around the one found,
	// nearest first: the reply names the first the agent's view lists
	// when it lists none of IDs (a word inside a paragraph).
	Around []int `json:"around,omitempty"`
	// Where says where the scroller stood when the slice ended.
	Where string `json:"where,omitempty"`
}

// ListView is where a list stands after a scroll or a find: the items it
// shows of how many, and the elements inside it, by local id, so the
// host can count the rows that appeared and went instead of listing them.
type ListView struct {
	// ID is the list's own local id (0 when it has none).
	ID int `json:"id"`
	// Unit is what its items are: "rows", "options" or "items".
	Unit  string `json:"unit"`
	First int    `json:"first"`
	Last  int    `json:"last"`
	Total int    `json:"total"`
	// Estimated says the positions were counted from the items' heights:
	// the list declares none (aria-rowindex, aria-posinset).
	Estimated bool `json:"estimated,omitempty"`
	// Inside are the local ids of the elements inside the list after the
	// scroll; Before those that had one before it.
	Inside []int `json:"inside,omitempty"`
	Before []int `json:"before,omitempty"`
}

// ListSummary is what a reply says of a long list it scrolled, in place
// of a line for each row that appeared, changed or went: "rows 41–80 of
// 2,000".
type ListSummary struct {
	// Ref is the list's ref, when the agent was told one.
	Ref       string `json:"ref,omitempty"`
	Unit      string `json:"unit"`
	First     int    `json:"first,omitempty"`
	Last      int    `json:"last,omitempty"`
	Total     int    `json:"total,omitempty"`
	Estimated bool   `json:"estimated,omitempty"`
	// Appeared, Changed and Gone count the elements of the list the reply
	// does not list (their refs are in Changes.Added and Changes.Gone).
	Appeared int `json:"appeared"`
	Changed  int `json:"changed"`
	Gone     int `json:"gone"`
	// GoneRefs are the refs of the list's elements that went, which the
	// reply's text leaves off its gone: line (they are in Changes.Gone).
	GoneRefs []string `json:"gone_refs,omitempty"`
}
