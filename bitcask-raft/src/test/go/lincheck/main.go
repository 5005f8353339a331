// Command lincheck reads a history of put and get operations on keys as JSON and says, with
// Porcupine, whether it is linearizable as a key-value register per key.
//
// Input: a JSON array of operations
//
//	{"client":1,"op":"put"|"get","key":"k","value":"v","output":"v","call":123,"return":456}
//
// "value" is what a put wrote, "output" what a get returned ("" for absent), "call" and
// "return" are times in nanoseconds; a put whose outcome is unknown has "return" -1.
// Exit status: 0 linearizable, 1 not linearizable, 2 bad input, 3 undecided within the timeout.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/anishathalye/porcupine"
)

type record struct {
	Client int    `json:"client"`
	Op     string `json:"op"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	Output string `json:"output"`
	Call   int64  `json:"call"`
	Return int64  `json:"return"`
}

type input struct {
	put   bool
	key   string
	value string
}

// register is a key-value store seen one key at a time: the state is the key's value, "" when absent.
var register = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		var order []string
		for _, op := range history {
			k := op.Input.(input).key
			if _, seen := byKey[k]; !seen {
				order = append(order, k)
			}
			byKey[k] = append(byKey[k], op)
		}
		parts := make([][]porcupine.Operation, 0, len(order))
		for _, k := range order {
			parts = append(parts, byKey[k])
		}
		return parts
	},
	Init: func() interface{} { return "" },
	Step: func(state, in, out interface{}) (bool, interface{}) {
		i := in.(input)
		if i.put {
			return true, i.value
		}
		return out.(string) == state.(string), state
	},
	Equal: func(a, b interface{}) bool { return a.(string) == b.(string) },
	DescribeOperation: func(in, out interface{}) string {
		i := in.(input)
		if i.put {
			return fmt.Sprintf("put(%s, %q)", i.key, i.value)
		}
		return fmt.Sprintf("get(%s) -> %q", i.key, out.(string))
	},
}

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: lincheck HISTORY.json [TIMEOUT_SECONDS]")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var records []record
	if err := json.Unmarshal(data, &records); err != nil {
		fmt.Fprintln(os.Stderr, "bad history:", err)
		os.Exit(2)
	}
	timeout := 60 * time.Second
	if len(os.Args) == 3 {
		var s int
		fmt.Sscan(os.Args[2], &s)
		timeout = time.Duration(s) * time.Second
	}
	ops := make([]porcupine.Operation, 0, len(records))
	for _, r := range records {
		if r.Op != "put" && r.Op != "get" {
			fmt.Fprintln(os.Stderr, "bad history: op", r.Op)
			os.Exit(2)
		}
		ret := r.Return
		if ret < 0 {
			ret = math.MaxInt64 // the outcome is unknown: it may take effect at any time after the call
		}
		ops = append(ops, porcupine.Operation{
			ClientId: r.Client,
			Input:    input{put: r.Op == "put", key: r.Key, value: r.Value},
			Call:     r.Call,
			Output:   r.Output,
			Return:   ret,
		})
	}
	result := porcupine.CheckOperationsTimeout(register, ops, timeout)
	switch result {
	case porcupine.Ok:
		fmt.Printf("linearizable: %d operations\n", len(ops))
	case porcupine.Illegal:
		fmt.Printf("NOT linearizable: %d operations\n", len(ops))
		os.Exit(1)
	default:
		fmt.Printf("unknown: no verdict within %s for %d operations\n", timeout, len(ops))
		os.Exit(3)
	}
}
