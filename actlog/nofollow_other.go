//go:build !unix

package actlog

// noFollow is not available here; Add's Lstat check refuses a link.
const noFollow = 0
