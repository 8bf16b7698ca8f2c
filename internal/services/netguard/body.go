package netguard

import (
	"errors"
	"fmt"
	"io"
)

// DefaultMaxBody is the bound on a response body the harness reads from
// the network (model servers, the embedder, search engines, data
// downloads) when the caller sets none: generous for any real answer,
// small enough that a misbehaving server cannot exhaust memory or disk.
const DefaultMaxBody int64 = 64 << 20

// ErrTooLarge matches (errors.Is) every *TooLargeError.
var ErrTooLarge = errors.New("response body too large")

// TooLargeError is a body that held more than Limit bytes.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return "response body larger than the " + Size(e.Limit) + " limit"
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Size spells a byte count for messages: "64 MiB", "1 KiB", "1000 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadAll reads r to its end. More than limit bytes is a *TooLargeError
// (with the first limit bytes); limit <= 0 means DefaultMaxBody.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		return b[:limit], &TooLargeError{Limit: limit}
	}
	return b, nil
}

// LimitBody returns rc reading at most limit bytes: reading past them
// fails with a *TooLargeError. limit <= 0 means DefaultMaxBody.
func LimitBody(rc io.ReadCloser, limit int64) io.ReadCloser {
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	return &limitedBody{rc: rc, left: limit, limit: limit}
}

type limitedBody struct {
	rc          io.ReadCloser
	left, limit int64
	err         error
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.rc.Read(p)
	if int64(n) > l.left {
		n, l.left = int(l.left), 0
		l.err = &TooLargeError{Limit: l.limit}
		return n, l.err
	}
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.rc.Close() }
