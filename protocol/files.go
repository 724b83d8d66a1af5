package protocol

// Uploads and downloads: the types both wires use for files going into a
// page (`grip upload`) and coming out of it (`grip downloads`,
// `grip wait --download`). docs/files.md, "Files in and out",
// follows both.

// MaxUploadBytes bounds the files of one upload together: the host holds
// them in memory, the worker and the page hold them once more while they
// are handed over.
const MaxUploadBytes = 50 << 20

// MaxUploadFiles bounds how many files one upload puts into an input.
const MaxUploadFiles = 100

// UploadChunkBytes is how many bytes of a file one upload_chunk carries:
// base64 makes it 256 KiB, well under MaxToExtension, and a multiple of 3
// bytes, so the chunks' base64 texts join into the file's without padding
// in between. Chrome moves strings of this size between its processes
// many times faster per byte than strings of a few MiB (measured on
// 4 MiB: 16 pieces of 256 KiB took 0.7 s through executeScript, 2 of
// 2 MiB 2.8 s), so the worker hands each chunk on to the page as it is.
const UploadChunkBytes = 192 << 10

// UploadChunkParams carries the next piece of one file of an upload:
// chunks arrive in order, each file's after the one before.
type UploadChunkParams struct {
	Upload string `json:"upload"` // the upload's random id
	File   int    `json:"file"`   // index in Upload.Files
	Offset int64  `json:"offset"` // of the chunk's first byte in the file
	Data   string `json:"data"`   // base64 of at most UploadChunkBytes bytes
}

// Upload names the files an upload_chunk series delivered, for the act
// that puts them into an element.
type Upload struct {
	ID    string       `json:"id"`
	Files []UploadFile `json:"files"`
}

// UploadFile is one file as the page's File object will describe it.
type UploadFile struct {
	Name string `json:"name"` // base name, as a file picker gives it
	Type string `json:"type"` // MIME type from the extension, "" when unknown
	Size int64  `json:"size"`
	// LastModified is the file's modification time in Unix milliseconds.
	LastModified int64 `json:"lastModified"`
}

// Download states, as chrome.downloads names them.
const (
	DownloadInProgress  = "in_progress"
	DownloadComplete    = "complete"
	DownloadInterrupted = "interrupted"
)

// Download is one download of the browser profile, as chrome.downloads
// records it, with the tab grip attributes it to.
type Download struct {
	ID       int    `json:"id"`
	Path     string `json:"path"`     // full path on disk; "" until Chrome picked it
	Filename string `json:"filename"` // base name of Path
	Bytes    int64  `json:"bytes"`    // received so far; the file's size once complete
	// Total is the size the server announced, 0 when unknown.
	Total int64  `json:"total,omitempty"`
	State string `json:"state"` // in_progress, complete or interrupted
	// Error is Chrome's reason for an interrupted download
	// (NETWORK_FAILED, FILE_NO_SPACE, SERVER_FORBIDDEN…).
	Error string `json:"error,omitempty"`
	// Danger is set while Chrome holds the file as possibly dangerous
	// (file, url, content…) until a person keeps or discards it.
	Danger string `json:"danger,omitempty"`
	URL    string `json:"url,omitempty"`
	// SourceURL is the URL the download was asked for, when a redirect
	// ended elsewhere (URL is the final one); Referrer is the page that
	// started it. The host judges a download by the strictest rule of
	// these, URL and Tab, and sends neither to agents (host/downloads.go).
	SourceURL string `json:"source_url,omitempty"`
	Referrer  string `json:"referrer,omitempty"`
	// Pages are the documents that started it, as they were when it
	// started: the tab's page and the frame's. Judged with the rest and
	// never sent to agents: the tab may have moved on since.
	Pages []string `json:"pages,omitempty"`
	// Tab is the tab that started it, 0 when grip cannot tell
	// (docs/files.md, "Files in and out").
	Tab     int    `json:"tab,omitempty"`
	Mime    string `json:"mime,omitempty"`
	Started string `json:"started,omitempty"` // RFC 3339, Chrome's clock
}

// DownloadsArgs are the arguments of OpDownloads.
type DownloadsArgs struct {
	// Limit is how many to list, newest first; 0 means 20.
	Limit int `json:"limit,omitempty"`
	Tab   int `json:"tab,omitempty"` // only this tab's (and those of no known tab)
}

// DownloadsResult answers OpDownloads.
type DownloadsResult struct {
	Downloads []Download `json:"downloads"`
}

// DownloadsParams asks the extension for downloads, newest first (Oldest:
// oldest first): at most Limit, started at or after Since (Unix
// milliseconds; 0: any time), of tab TabID or of no known tab (0: any
// tab).
type DownloadsParams struct {
	Limit  int     `json:"limit,omitempty"`
	Since  float64 `json:"since,omitempty"`
	TabID  int     `json:"tabId,omitempty"`
	Oldest bool    `json:"oldest,omitempty"`
	// Path asks for the downloads saved at this path (an upload's file),
	// whatever their age.
	Path string `json:"path,omitempty"`
}

// DownloadsReply answers DownloadsParams.
type DownloadsReply struct {
	Downloads []Download `json:"downloads"`
}

// DownloadWaitParams asks the extension to wait for the first download,
// in the order they started, with an id above AfterID, started at or
// after Since (Unix milliseconds), of tab TabID or of no known tab (0: any
// tab), to finish; it answers that Download, complete or interrupted, or
// a timeout after TimeoutMS.
type DownloadWaitParams struct {
	Since     float64 `json:"since"`
	AfterID   int     `json:"afterId,omitempty"`
	TabID     int     `json:"tabId,omitempty"`
	TimeoutMS int     `json:"timeoutMs"`
}
