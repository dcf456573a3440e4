package serve

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// listPage cuts a list request's sorted snapshots to the page its limit
// and continue ask for (as the API server's chunked lists: kubectl asks
// 500 at a time), and checks its resourceVersion: a number, at most the
// store's newest (rv). It returns the page and the ListMeta fields of the
// rest. A continued page holds the objects after the last one given, as
// they are now: podsim keeps no past lists.
func listPage(snaps []snapshot, query url.Values, rv uint64) ([]snapshot, string, *int64, *apierrors.StatusError) {
	if v := query.Get("resourceVersion"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, "", nil, apierrors.NewBadRequest("resourceVersion: want a version from this server, not " + strconv.Quote(v))
		}
		if n > rv {
			return nil, "", nil, tooLarge(n, rv)
		}
	}
	if c := query.Get("continue"); c != "" {
		ns, name, err := decodeContinue(c)
		if err != nil {
			return nil, "", nil, apierrors.NewBadRequest("continue key is not valid: " + err.Error())
		}
		i, _ := slices.BinarySearchFunc(snaps, [2]string{ns, name}, func(s snapshot, k [2]string) int {
			b := s.base()
			if c := strings.Compare(b.namespace, k[0]); c != 0 {
				return c
			}
			return strings.Compare(b.name, k[1])
		})
		for i < len(snaps) && snaps[i].base().namespace == ns && snaps[i].base().name == name {
			i++
		}
		snaps = snaps[i:]
	}
	l := query.Get("limit")
	if l == "" {
		return snaps, "", nil, nil
	}
	n, err := strconv.ParseInt(l, 10, 64)
	if err != nil || n < 0 {
		return nil, "", nil, apierrors.NewBadRequest("limit: want a number of objects, not " + strconv.Quote(l))
	}
	if n == 0 || n >= int64(len(snaps)) {
		return snaps, "", nil, nil
	}
	last := snaps[n-1].base()
	left := int64(len(snaps)) - n
	return snaps[:n], encodeContinue(rv, last.namespace, last.name), &left, nil
}

// tooLarge is the API server's answer to a resourceVersion it has not
// reached: 504 Timeout, "Too large resource version".
func tooLarge(asked, current uint64) *apierrors.StatusError {
	e := statusError(http.StatusGatewayTimeout, metav1.StatusReasonTimeout,
		fmt.Sprintf("Too large resource version: %d, current: %d", asked, current))
	e.ErrStatus.Details = &metav1.StatusDetails{RetryAfterSeconds: 1,
		Causes: []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}}
	return e
}

// encodeContinue is a continue token: the list's version and the last
// object given.
func encodeContinue(rv uint64, ns, name string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("podsim/1\x00" + strconv.FormatUint(rv, 10) + "\x00" + ns + "\x00" + name))
}

func decodeContinue(c string) (ns, name string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", "", err
	}
	f := strings.Split(string(b), "\x00")
	if len(f) != 4 || f[0] != "podsim/1" {
		return "", "", fmt.Errorf("not a token of this server")
	}
	return f[2], f[3], nil
}
