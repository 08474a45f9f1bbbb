package awk

// The syntax tree. Names are resolved while parsing: a variable is a slot
// in the globals or in the current function's frame, so the interpreter
// never looks a name up by string.

// expr is an expression node; the interpreter switches on its type.
type expr interface{}

// stmt is a statement node.
type stmt interface{}

type numExpr struct{ v value }
type strExpr struct{ v value }

// regexExpr is a regex constant: as an operand it means `$0 ~ /re/`.
type regexExpr struct {
	src string
	re  *regex
}

// scope says where a variable lives.
type scope uint8

const (
	global scope = iota
	local
)

type varExpr struct {
	scope scope
	idx   int
	name  string
}

type fieldExpr struct {
	index expr
	fixed int // the index when it is a constant, else -1
}

type indexExpr struct {
	arr  *varExpr
	subs []expr
}

type assignExpr struct {
	lhs expr // *varExpr, *fieldExpr or *indexExpr
	op  tok  // tAssign or an arithmetic assignment
	rhs expr
}

type condExpr struct{ cond, yes, no expr }

type binaryExpr struct {
	op   tok
	l, r expr
}

type concatExpr struct{ parts []expr }

type unaryExpr struct {
	op tok // tSub, tAdd, tNot
	e  expr
}

type incDecExpr struct {
	lhs expr
	pre bool
	op  tok // tIncr or tDecr
}

type matchExpr struct {
	l, re expr
	neg   bool
}

type inExpr struct {
	subs []expr
	arr  *varExpr
}

// groupExpr is a parenthesised list `(a, b)`, valid only before `in` or as
// the whole argument list of print.
type groupExpr struct{ list []expr }

// parenExpr is one parenthesised expression; it keeps `print (a) > f`
// and `(x) in a` apart from their unparenthesised forms.
type parenExpr struct{ e expr }

type builtinExpr struct {
	fn   builtin
	args []expr
	pos  int
}

type callExpr struct {
	name string
	fn   *funcDef // resolved after parsing
	args []expr
	pos  int
}

// getline modes.
const (
	getPlain = iota // getline [var]
	getFile         // getline [var] < file
	getCmd          // cmd | getline [var]
)

type getlineExpr struct {
	mode int
	lhs  expr // nil means $0
	src  expr // file or command
}

// Statements.

type printStmt struct {
	args   []expr
	printf bool
	redir  tok // 0, tGT, tAppend or tPipe
	dest   expr
	pos    int
}

type exprStmt struct {
	e   expr
	pos int
}

type ifStmt struct {
	cond    expr
	yes, no stmt
	pos     int
}

type whileStmt struct {
	cond expr
	body stmt
	pos  int
}

type doStmt struct {
	body stmt
	cond expr
	pos  int
}

type forStmt struct {
	init, post stmt // may be nil
	cond       expr // may be nil
	body       stmt
	pos        int
}

type forInStmt struct {
	key  expr // *varExpr, *indexExpr or *fieldExpr
	arr  *varExpr
	body stmt
	pos  int
}

type blockStmt struct{ list []stmt }

type nextStmt struct{ pos int }
type nextfileStmt struct{ pos int }
type breakStmt struct{ pos int }
type continueStmt struct{ pos int }

type exitStmt struct {
	e   expr
	pos int
}

type returnStmt struct {
	e   expr
	pos int
}

type deleteStmt struct {
	arr  *varExpr
	subs []expr // nil deletes the whole array
	pos  int
}

type switchStmt struct {
	e     expr
	cases []switchCase
	pos   int
}

type switchCase struct {
	match expr // nil for default
	body  []stmt
}

// funcDef is a user function; locals are its parameters.
type funcDef struct {
	name   string
	params []string
	body   *blockStmt
	pos    int
}

// rule is `pattern { action }`; a nil body prints $0, a nil pattern
// matches every record, pattern2 makes a range.
type rule struct {
	pattern, pattern2 expr
	body              *blockStmt
	pos               int
}

type program struct {
	begins, ends         []*blockStmt
	beginFiles, endFiles []*blockStmt
	rules                []*rule
	funcs                map[string]*funcDef
	globals              []string
	globalIndex          map[string]int
}
