package notify

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

// A test email is a single attempt, so its hint must not promise retries.
func TestSendTestEmailHintPromisesNoRetry(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now: the connection is refused
	cfg := model.Config{Host: "127.0.0.1", Port: port, Security: model.SecurityNone,
		From: "a@example.test", To: []string{"b@example.test"}, Timeout: 2 * time.Second}
	err = SendTestEmail(context.Background(), cfg, "")
	var de *DeliveryError
	if !errors.As(err, &de) {
		t.Fatalf("SendTestEmail to a closed port = %v, want a DeliveryError", err)
	}
	if de.Hint == "" || strings.Contains(err.Error(), "keeps retrying") {
		t.Fatalf("hint %q (error %q): want a hint without a promise to retry", de.Hint, err)
	}
	if !strings.Contains(err.Error(), strconv.Itoa(port)) && !strings.Contains(strings.ToLower(err.Error()), "refused") {
		t.Errorf("error %q does not say the connection was refused", err)
	}
}
