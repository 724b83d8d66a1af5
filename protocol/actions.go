package protocol

// Actions understood by OpAct.
const (
	ActClick    = "click"
	ActDblClick = "dblclick"
	// ActRightClick presses the secondary button: the page's context menu.
	ActRightClick = "rightclick"
	ActHover      = "hover"
	ActFocus      = "focus"
	ActType       = "type"
	ActFill       = "fill"
	ActSelect     = "select"
	ActCheck      = "check"
	ActUncheck    = "uncheck"
	ActPress      = "press"
	ActScroll     = "scroll"
	ActFind       = "find"
	ActDrag       = "drag"
	ActNavigate   = "navigate"
	ActBack       = "back"
	ActForward    = "forward"
	ActReload     = "reload"
	ActTabNew     = "tab_new"
	ActTabClose   = "tab_close"
	ActTabSelect  = "tab_select"
	// The answers to a tab's JavaScript dialog: `grip dialog accept|dismiss`.
	ActDialogAccept  = "dialog_accept"
	ActDialogDismiss = "dialog_dismiss"
	ActUpload        = "upload"
)

// TargetNeed says whether an action names an element.
type TargetNeed int

const (
	TargetNone     TargetNeed = iota // acts on a tab (navigate, back…)
	TargetOptional                   // an element, else the page (press, scroll)
	TargetRequired                   // an element
)

// Action describes one verb of OpAct: what it takes and who carries it out.
// The host checks requests against it, the CLI builds its commands and
// usage from it, and the kernel's list of element actions is tested
// against it, so a new action is added here once.
type Action struct {
	Name   string
	Target TargetNeed
	// Text names what ActArgs.Text carries in usage lines ("TEXT",
	// "VALUE", "KEY", "URL"), or is empty when the action takes none.
	Text string
	// Files says the action takes one or more FILE paths after its target
	// (ActArgs.Files), which the host reads.
	Files bool
	// Trusted says the action has a real mouse or keyboard form for
	// --trusted; the others stay synthetic in trusted mode.
	Trusted bool
	// To says the action takes a second element, ActArgs.To, after the
	// first: drag's drop target, and a drop point inside it (ActArgs.ToAt).
	To bool
	// At says the action takes a point inside its target (ActArgs.At):
	// the canvas app's click, or where a drag's press starts (a shape on a
	// canvas), docs/drawings.md, "Drawings and canvases".
	At bool
	// Ext is the extension request of an action on a whole tab; empty for
	// actions the kernel runs in the page.
	Ext string
	// Help is the one-line description of the usage text.
	Help string
}

// Actions is every action, in the order the usage text lists them.
var Actions = []Action{
	{Name: ActClick, Target: TargetRequired, Trusted: true, At: true, Help: "click an element"},
	{Name: ActDblClick, Target: TargetRequired, Trusted: true, At: true, Help: "double-click an element"},
	{Name: ActRightClick, Target: TargetRequired, Trusted: true, At: true, Help: "right-click an element (the page's own context menu)"},
	{Name: ActHover, Target: TargetRequired, Trusted: true, At: true, Help: "move the mouse over an element"},
	{Name: ActFocus, Target: TargetRequired, Help: "focus an element"},
	{Name: ActType, Target: TargetRequired, Text: "TEXT", Trusted: true, Help: "type after what the field holds"},
	{Name: ActFill, Target: TargetRequired, Text: "TEXT", Trusted: true, Help: "replace what the field holds"},
	{Name: ActSelect, Target: TargetRequired, Text: "VALUE", Help: "pick an option by value or visible label"},
	{Name: ActCheck, Target: TargetRequired, Trusted: true, Help: "check a checkbox or radio"},
	{Name: ActUncheck, Target: TargetRequired, Trusted: true, Help: "uncheck a checkbox"},
	{Name: ActPress, Target: TargetOptional, Text: "KEY", Trusted: true, Help: "Enter, Tab, Escape, ArrowDown, Control+A…"},
	{Name: ActScroll, Target: TargetOptional, Help: "scroll the page by a screen, an element into view, or a list's or grid's content (--up)"},
	{Name: ActFind, Target: TargetOptional, Text: "TEXT", Help: "bring an element into view by its text: scroll the page, or the list TARGET (--in), step by step until one says TEXT"},
	{Name: ActDrag, Target: TargetRequired, To: true, At: true, Help: "drag an element onto another (HTML5 drag and drop, or pointer-driven sortables); --at, --to, --to-offset: points inside them"},
	{Name: ActUpload, Target: TargetRequired, Files: true, Help: "put files into a file input, or the button or label in front of one"},
	{Name: ActNavigate, Text: "URL", Ext: string(ExtNavigate), Help: "open a URL in the tab"},
	{Name: ActBack, Ext: string(ExtBack), Help: "go back in the tab's history"},
	{Name: ActForward, Ext: string(ExtForward), Help: "go forward in the tab's history"},
	{Name: ActReload, Ext: string(ExtReload), Help: "reload the tab"},
	{Name: ActTabNew, Text: "URL", Ext: string(ExtTabNew), Help: "open a tab"},
	{Name: ActTabClose, Ext: string(ExtTabClose), Help: "close a tab"},
	{Name: ActTabSelect, Ext: string(ExtTabSelect), Help: "make a tab the active one"},
	{Name: ActDialogAccept, Text: "TEXT", Ext: string(ExtDialog), Help: "accept the tab's dialog (TEXT answers a prompt)"},
	{Name: ActDialogDismiss, Ext: string(ExtDialog), Help: "dismiss the tab's dialog"},
}

// LookupAction returns the action called name.
func LookupAction(name string) (Action, bool) {
	for _, a := range Actions {
		if a.Name == name {
			return a, true
		}
	}
	return Action{}, false
}

// InPage reports whether the kernel carries the action out in a page.
func (a Action) InPage() bool { return a.Ext == "" }
