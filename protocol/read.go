package protocol

// Reading one element's whole text (docs/reading.md, "Reading one
// element"): the socket operation behind `grip read` and MCP
// `browser_snapshot {ref}`, and the extension request behind it.

// OpRead reads the whole text of one element, in parts the size of the
// budget.
const OpRead = "read" // ReadArgs → ReadResult

// ExtRead asks the kernel of the element's document for a part of its
// text.
const ExtRead ExtCall[ReadParams, ReadReply] = "read"

// ReadArgs are the arguments of OpRead.
type ReadArgs struct {
	// Target is the element: a ref, or a snapshot line ("text 'Intro'")
	// that names exactly one element of Tab.
	Target string `json:"target"`
	// Tab is where a snapshot line is looked for (0: the default tab); a
	// ref names its own tab.
	Tab int `json:"tab,omitempty"`
	// From is where the part starts, in characters (Unicode code points)
	// of the element's whole text: 0, or the Next of the part before.
	From int `json:"from,omitempty"`
	// Budget is the token allowance of the text (0: DefaultBudget).
	Budget int `json:"budget,omitempty"`
}

// ReadResult answers OpRead.
type ReadResult struct {
	Tab TabRef `json:"tab"`
	// Ref is the element read; Line its snapshot line as the agent last
	// saw it (without its value).
	Ref  string `json:"ref"`
	Line string `json:"line"`
	// Content is the part of the element's text shown, as the page has
	// it: blocks on lines of their own.
	Content string `json:"content"`
	// From and To are where the part starts and ends in the whole text;
	// Total is the whole text's length, in characters.
	From  int `json:"from"`
	To    int `json:"to"`
	Total int `json:"total"`
	// Omitted counts the characters after To; Next is the From that reads
	// on (set when Omitted is), and More the command that does.
	Omitted int    `json:"omitted"`
	Next    int    `json:"next,omitempty"`
	More    string `json:"more,omitempty"`
	// Secret: the element is a field whose value grip never reads (a
	// password); Secrets: how many such fields inside it were left out.
	Secret  bool `json:"secret,omitempty"`
	Secrets int  `json:"secrets,omitempty"`
	Tokens  int  `json:"tokens"`
	Budget  int  `json:"budget"`
	// Text is exactly what the plain command prints.
	Text string `json:"text"`
}

// ReadParams are the params of ExtRead: the element by its document and
// local id, and the part of its text wanted (Max characters from From).
type ReadParams struct {
	TabID      int    `json:"tabId"`
	DocumentID string `json:"documentId"`
	LocalID    int    `json:"localId"`
	From       int    `json:"from"`
	Max        int    `json:"max"`
}

// ReadReply is the kernel's part of the element's text, with the tab it
// was read in and the element's role and name as the page says them now.
type ReadReply struct {
	Tab     TabRef `json:"tab"`
	Text    string `json:"text"`
	Total   int    `json:"total"`
	Secret  bool   `json:"secret,omitempty"`
	Secrets int    `json:"secrets,omitempty"`
	Role    string `json:"role"`
	Name    string `json:"name"`
}
