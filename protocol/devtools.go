package protocol

// Developer tools under the person's policy (docs/devtools.md,
// "Developer tools"): the socket operations, their arguments and results,
// and the extension requests behind them.

// Socket operations.
const (
	OpConsole         = "console"          // ConsoleArgs → ConsoleResult
	OpNetwork         = "network"          // NetworkArgs → NetworkResult
	OpNetworkBody     = "network_body"     // NetworkBodyArgs → NetworkBody
	OpEval            = "eval"             // EvalArgs → EvalResult
	OpPDF             = "pdf"              // PDFArgs → PDFResult
	OpScreenshotShape = "screenshot_shape" // ScreenshotShapeArgs → ShapeShot
)

// Requests to the extension.
const (
	ExtConsole     ExtCall[TabParams, ConsoleReply]             = "console"
	ExtNetwork     ExtCall[TabParams, NetworkReply]             = "network"
	ExtNetworkBody ExtCall[NetworkBodyParams, NetworkBodyReply] = "network_body"
	ExtEvaluate    ExtCall[EvaluateParams, EvalReply]           = "evaluate"
	ExtPDF         ExtCall[PDFParams, PDFReply]                 = "pdf"
	ExtElementShot ExtCall[ElementShotParams, ShotReply]        = "element_shot"
	ExtBoxesShot   ExtCall[BoxesShotParams, ShotReply]          = "boxes_shot"
)

// Console levels, the most severe first. A level asked for includes the
// levels above it.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelInfo    = "info"
	LevelDebug   = "debug"
)

// ConsoleArgs are the arguments of OpConsole. Level "" means info.
type ConsoleArgs struct {
	Tab   int    `json:"tab,omitempty"`
	Level string `json:"level,omitempty"`
	// Budget is the token allowance of the text (0: the default).
	Budget int `json:"budget,omitempty"`
}

// ConsoleMessage is one message of a page's console, or several equal
// ones folded: Count says how many, Time is the first's.
type ConsoleMessage struct {
	Level string `json:"level"`
	// Source: console (a console call), exception (an uncaught error or
	// rejection), browser (the browser's own: a failed load, blocked
	// content, an intervention).
	Source string   `json:"source"`
	Text   string   `json:"text"`
	URL    string   `json:"url,omitempty"`
	Line   int      `json:"line,omitempty"`
	Column int      `json:"column,omitempty"`
	Time   int64    `json:"time"`
	Count  int      `json:"count,omitempty"`
	Worker bool     `json:"worker,omitempty"`
	Stack  []string `json:"stack,omitempty"`
	// FrameOrigin is the origin of the frame (or worker) it came from.
	FrameOrigin string `json:"frame_origin,omitempty"`
}

// ConsoleResult answers OpConsole: messages oldest first.
type ConsoleResult struct {
	Tab      TabRef           `json:"tab"`
	Messages []ConsoleMessage `json:"messages"`
	// Hidden counts the messages below the level asked for; Blocked those
	// of frames the policy blocks (left out); Omitted the oldest left out
	// for the budget.
	Hidden  int    `json:"hidden,omitempty"`
	Blocked int    `json:"blocked,omitempty"`
	Omitted int    `json:"omitted,omitempty"`
	Text    string `json:"text"`
}

// ConsoleReply is the extension's answer to ExtConsole.
type ConsoleReply struct {
	Tab      TabRef           `json:"tab"`
	Messages []ConsoleMessage `json:"messages"`
}

// NetworkArgs are the arguments of OpNetwork.
type NetworkArgs struct {
	Tab int `json:"tab,omitempty"`
	// Filter keeps requests whose URL contains it (any case).
	Filter string `json:"filter,omitempty"`
	// All lists successful static resources too (images, fonts, style
	// sheets, scripts, media), which the compact list leaves out.
	All    bool `json:"all,omitempty"`
	Budget int  `json:"budget,omitempty"`
}

// NetRequest is one network request of a page.
type NetRequest struct {
	ID       int    `json:"id"`
	Method   string `json:"method"`
	URL      string `json:"url"`
	Type     string `json:"type"`
	Status   int    `json:"status"`
	MimeType string `json:"mime_type,omitempty"`
	// Bytes is what came over the network, headers included (0 from the
	// cache).
	Bytes int64 `json:"bytes"`
	MS    int   `json:"ms"`
	// Started is when it was sent, in ms since the Unix epoch.
	Started int64  `json:"started"`
	Failed  string `json:"failed,omitempty"`
	Pending bool   `json:"pending,omitempty"`
	// Body: grip network --body ID can fetch its body.
	Body        bool   `json:"body"`
	FrameOrigin string `json:"frame_origin,omitempty"`
	FrameURL    string `json:"frame_url,omitempty"`
}

// Gap is a time grip saw no requests of the page (it was not attached).
type Gap struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// NetworkResult answers OpNetwork.
type NetworkResult struct {
	Tab TabRef `json:"tab"`
	// Since is when grip began to see the page's requests (ms since the
	// epoch): its load (Loaded), if grip navigated it or was attached as it
	// loaded, else grip's first touch of the tab.
	Since    int64        `json:"since"`
	Loaded   bool         `json:"loaded"`
	Gaps     []Gap        `json:"gaps,omitempty"`
	Requests []NetRequest `json:"requests"`
	// Static counts the static resources left out (NetworkArgs.All lists
	// them), Filtered those the filter left out, Blocked those of frames
	// or origins the policy blocks, Omitted the oldest left out for the
	// budget.
	Static   int    `json:"static,omitempty"`
	Filtered int    `json:"filtered,omitempty"`
	Blocked  int    `json:"blocked,omitempty"`
	Omitted  int    `json:"omitted,omitempty"`
	Text     string `json:"text"`
}

// NetworkReply is the extension's answer to ExtNetwork.
type NetworkReply struct {
	Tab      TabRef       `json:"tab"`
	Since    int64        `json:"since"`
	Loaded   bool         `json:"loaded"`
	Gaps     []Gap        `json:"gaps"`
	Requests []NetRequest `json:"requests"`
}

// Limits on a response body.
const (
	DefaultBodyBytes = 1 << 20
	MaxBodyBytes     = 16 << 20
)

// NetworkBodyArgs are the arguments of OpNetworkBody.
type NetworkBodyArgs struct {
	Tab int `json:"tab,omitempty"`
	ID  int `json:"id"`
	// MaxBytes cuts the body (0: DefaultBodyBytes; at most MaxBodyBytes).
	MaxBytes int `json:"max_bytes,omitempty"`
}

// NetworkBodyParams are the params of ExtNetworkBody.
type NetworkBodyParams struct {
	ID       int `json:"id"`
	MaxBytes int `json:"maxBytes"`
}

// NetworkBodyReply is the extension's answer to ExtNetworkBody.
type NetworkBodyReply struct {
	Tab         TabRef `json:"tab"`
	ID          int    `json:"id"`
	URL         string `json:"url"`
	Method      string `json:"method"`
	Status      int    `json:"status"`
	MimeType    string `json:"mime_type"`
	FrameOrigin string `json:"frame_origin"`
	Base64      bool   `json:"base64"`
	Bytes       int    `json:"bytes"`
	Truncated   bool   `json:"truncated"`
	Body        string `json:"body"`
}

// NetworkBody answers OpNetworkBody: Body holds the bytes (cut at the
// limit: Truncated), Text is set when they are UTF-8 text.
type NetworkBody struct {
	Tab       TabRef `json:"tab"`
	ID        int    `json:"id"`
	URL       string `json:"url"`
	Status    int    `json:"status"`
	MimeType  string `json:"mime_type,omitempty"`
	Bytes     int    `json:"bytes"`
	Truncated bool   `json:"truncated,omitempty"`
	Body      []byte `json:"body"`
	Text      string `json:"text,omitempty"`
}

// EvalArgs are the arguments of OpEval.
type EvalArgs struct {
	Tab        int    `json:"tab,omitempty"`
	Expression string `json:"expression"`
	TimeoutMS  int    `json:"timeout_ms,omitempty"`
}

// EvaluateParams are the params of ExtEvaluate: Origin is the origin the
// policy allowed, which the page must still be on when the expression runs.
type EvaluateParams struct {
	TabID      int    `json:"tabId"`
	Expression string `json:"expression"`
	Origin     string `json:"origin"`
	TimeoutMS  int    `json:"timeoutMs,omitempty"`
}

// EvalReply is the extension's answer to ExtEvaluate, and EvalResult
// answers OpEval: Value is the result as JSON (absent for undefined); Text
// describes a result JSON cannot hold (a function, NaN, a DOM node).
type EvalReply struct {
	Tab   TabRef `json:"tab"`
	Type  string `json:"type"`
	Value any    `json:"value,omitempty"`
	Text  string `json:"text,omitempty"`
}

// EvalResult answers OpEval.
type EvalResult = EvalReply

// PDFArgs are the arguments of OpPDF.
type PDFArgs struct {
	Tab       int  `json:"tab,omitempty"`
	Landscape bool `json:"landscape,omitempty"`
}

// PDFParams are the params of ExtPDF.
type PDFParams struct {
	TabID     int  `json:"tabId"`
	Landscape bool `json:"landscape,omitempty"`
}

// PDFReply is the extension's answer to ExtPDF: the PDF, base64.
type PDFReply struct {
	Tab  TabRef `json:"tab"`
	Data string `json:"data"`
}

// PDFResult answers OpPDF.
type PDFResult struct {
	Tab TabRef `json:"tab"`
	PDF []byte `json:"pdf"`
}

// ScreenshotShapeArgs are the arguments of OpScreenshotShape: a PNG of
// one element (Target, a ref), or of the viewport with the refs of a
// snapshot taken with it drawn on (Refs).
type ScreenshotShapeArgs struct {
	Tab    int    `json:"tab,omitempty"`
	Target string `json:"target,omitempty"`
	Refs   bool   `json:"refs,omitempty"`
	// Grid draws coordinates over an element's screenshot: lines every
	// ShapeShot.Grid CSS pixels, labelled with their distance from the
	// element's top-left corner, the coordinates click --at takes.
	Grid bool `json:"grid,omitempty"`
}

// ElementShotParams are the params of ExtElementShot.
type ElementShotParams struct {
	TabID      int    `json:"tabId"`
	DocumentID string `json:"documentId"`
	LocalID    int    `json:"localId"`
}

// ShotFrame names the elements of one document whose boxes a refs
// screenshot draws.
type ShotFrame struct {
	DocumentID string `json:"documentId"`
	IDs        []int  `json:"ids"`
}

// BoxesShotParams are the params of ExtBoxesShot.
type BoxesShotParams struct {
	TabID  int         `json:"tabId"`
	Frames []ShotFrame `json:"frames"`
}

// Box is an element's box in the viewport, CSS px.
type Box struct {
	DocumentID string  `json:"documentId"`
	ID         int     `json:"id"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Width      float64 `json:"width"`
	Height     float64 `json:"height"`
}

// ShotReply is the extension's answer to ExtElementShot and ExtBoxesShot:
// a PNG (base64), its size in CSS px, and for ExtBoxesShot the boxes.
type ShotReply struct {
	Tab     TabRef  `json:"tab"`
	Data    string  `json:"data"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Clipped bool    `json:"clipped,omitempty"`
	// Left and Top say where a clipped element's image starts, in CSS
	// pixels from the element's top-left corner.
	Left  float64 `json:"left,omitempty"`
	Top   float64 `json:"top,omitempty"`
	Boxes []Box   `json:"boxes,omitempty"`
}

// DrawnRef is a ref a refs screenshot labels, and where (CSS px).
type DrawnRef struct {
	Ref    string `json:"ref"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// ShapeShot answers OpScreenshotShape: the PNG, its size in CSS px (an
// element's: its box, or the part of it in the viewport when Clipped), and
// for a refs screenshot the refs drawn and the snapshot they come from.
type ShapeShot struct {
	Tab     TabRef `json:"tab"`
	PNG     []byte `json:"png"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Clipped bool   `json:"clipped,omitempty"`
	// Grid is the step of the coordinate lines drawn (ScreenshotShapeArgs.Grid),
	// in CSS pixels; Left and Top where the image starts in the element's
	// box when it is clipped.
	Grid     int        `json:"grid,omitempty"`
	Left     int        `json:"left,omitempty"`
	Top      int        `json:"top,omitempty"`
	Refs     []DrawnRef `json:"refs,omitempty"`
	Snapshot *Snapshot  `json:"snapshot,omitempty"`
}
