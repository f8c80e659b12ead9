package io.partita.query;

import io.partita.query.SqlToken.Kind;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides, before anything reaches the SQL engine, whether a statement is one the read-only endpoint runs: a single
 * SELECT that reads only the published mappings. It works on {@link SqlTokenizer}'s tokens, never on raw text, so
 * comments, quoting and case cannot hide a keyword, and it allows rather than forbids:
 * <ol>
 *   <li>one statement (a trailing {@code ;} is dropped, any other is refused), starting with {@code SELECT};</li>
 *   <li>no word that starts another kind of statement or clause a read has no use for ({@link #FORBIDDEN}: DML, DDL,
 *       {@code SINK}, {@code JOB}, {@code MAPPING}, {@code TABLE}, {@code EXPLAIN}, {@code SHOW}, ...), in any case;
 *       a quoted identifier is never a keyword, so {@code "type"} or {@code "delete"} stay plain names;</li>
 *   <li>every call is of a function on the list of scalar and aggregate functions ({@link #FUNCTIONS}); table
 *       functions ({@code csv_file}, {@code generate_series}, {@code jdbc...}) and quoted function names are not;</li>
 *   <li>every table after {@code FROM}, {@code JOIN} or a comma of a FROM list is a published mapping, named exactly
 *       (Hazelcast's names are case-sensitive), unqualified, or a parenthesised {@code SELECT} that obeys the same
 *       rules;</li>
 *   <li>no name is {@code this} or {@code __key} ({@link #HIDDEN}), in any case or quoting: they are the whole stored
 *       key and value, with fields that the mappings do not publish;</li>
 *   <li>nothing makes one row cost without bound, since the engine's timeout is checked between rows, not inside
 *       one: a {@code LIKE} pattern holds at most one {@code %} before its end (the engine matches it with a
 *       backtracking regular expression), {@code ROUND} and {@code TRUNCATE} take a small literal scale, and the
 *       statement has at most {@link #MAX_OPERATORS} operators (the parser and validator recurse once per level);</li>
 *   <li>nothing makes the query hold more than one table's rows in memory ({@link Bound}): no join (JOIN, or a
 *       comma between tables), no subquery in an expression ({@code IN (SELECT ...)}, {@code EXISTS}, a scalar
 *       one: the engine runs them as joins), no UNION without ALL, INTERSECT or EXCEPT, no DISTINCT, and GROUP BY
 *       only over the journal's {@link #SMALL_DOMAIN} columns. A join builds a hash table of one side on every member
 *       and can produce the product of both; a GROUP BY or DISTINCT over an arbitrary column gathers one group per
 *       distinct value of the whole cluster on the coordinating member. ORDER BY stays: the engine sorts each
 *       member's own rows there and merges the sorted streams on the coordinator without holding them.</li>
 * </ol>
 * The engine is then sent the statement rebuilt from the tokens judged here (joined by single spaces, strings and
 * quoted names re-quoted), never the text as received, so a lexical rule of the parser that the tokenizer does not
 * share cannot make the engine run something other than what was checked. It still runs as a query that must return
 * rows, bounded in rows and time.
 */
final class SqlGuard {

    /** Words that open a statement or clause other than a read of the published mappings, in upper case. */
    static final Set<String> FORBIDDEN = Set.of(
            "INSERT", "UPDATE", "DELETE", "UPSERT", "MERGE", "SINK", "INTO", "CREATE", "DROP", "ALTER", "EXPLAIN",
            "SHOW", "DESCRIBE", "SUBMIT", "JOB", "JOBS", "MAPPING", "MAPPINGS", "VIEW", "VIEWS", "INDEX", "SNAPSHOT",
            "EXECUTE", "CALL", "GRANT", "REVOKE", "SET", "RESET", "TABLE", "LATERAL", "UNNEST", "VALUES", "WITH",
            "STREAM", "TABLESAMPLE", "MATCH_RECOGNIZE", "EXPORT", "IMPORT", "COPY", "LOAD", "OPTIONS", "CURSOR",
            "MULTISET", "NEW", "SYSTEM_TIME", "SPECIFIC", "RESUME", "SUSPEND", "RESTART", "CANCEL", "APPLY",
            "SIMILAR", "RLIKE", "REGEXP");

    /**
     * Scalar and aggregate functions a read may call, in upper case. Not REPLACE: nested, it multiplies a string's
     * length at each level, so a short statement builds gigabytes inside one row.
     */
    static final Set<String> FUNCTIONS = Set.of(
            "COUNT", "SUM", "AVG", "MIN", "MAX",
            "ABS", "CEIL", "CEILING", "FLOOR", "ROUND", "TRUNCATE", "SIGN", "MOD", "POWER", "SQRT", "EXP", "LN",
            "LOG10", "DEGREES", "RADIANS",
            "LOWER", "UPPER", "INITCAP", "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH", "TRIM", "LTRIM", "RTRIM",
            "BTRIM", "SUBSTRING", "CONCAT", "CONCAT_WS", "POSITION", "ASCII",
            "COALESCE", "NULLIF", "CAST", "EXTRACT", "TO_TIMESTAMP_TZ", "TO_EPOCH_MILLIS");

    /** The key and value of every IMap mapping, in lower case: they hold fields no mapping publishes. */
    static final Set<String> HIDDEN = Set.of("this", "__key");

    /** Functions whose second argument is a scale: the engine computes that many digits for every row. */
    private static final Set<String> SCALED = Set.of("ROUND", "TRUNCATE");
    static final int MAX_SCALE = 38;

    /** Operators that the engine matches against a pattern with a regular expression. */
    private static final Set<String> PATTERN_OPERATORS = Set.of("LIKE", "ILIKE");

    /** Tokens that each add a level to an expression tree, counted against {@link #MAX_OPERATORS}. */
    private static final Set<String> OPERATOR_SYMBOLS = Set.of(
            "+", "-", "*", "/", "%", "||", "=", "<", ">", "<=", ">=", "<>", "!=");
    private static final Set<String> OPERATOR_WORDS = Set.of("AND", "OR", "NOT", "CASE", "LIKE", "ILIKE", "BETWEEN");

    /** Functions whose arguments use FROM as a word ({@code EXTRACT(YEAR FROM x)}); it names no table there. */
    private static final Set<String> FROM_IN_ARGUMENTS = Set.of("EXTRACT", "TRIM", "SUBSTRING");

    /** Keywords after which a parenthesis groups an expression or a subquery rather than calling a function. */
    private static final Set<String> GROUPING_KEYWORDS = Set.of(
            "SELECT", "FROM", "JOIN", "WHERE", "AND", "OR", "NOT", "IN", "EXISTS", "ON", "HAVING", "WHEN", "THEN",
            "ELSE", "CASE", "BY", "DISTINCT", "ALL", "ANY", "SOME", "UNION", "INTERSECT", "EXCEPT", "BETWEEN",
            "LIKE", "AS", "IS", "USING");

    /** Type names that take a precision in parentheses inside CAST. */
    private static final Set<String> SIZED_TYPES = Set.of(
            "DECIMAL", "NUMERIC", "DEC", "VARCHAR", "CHAR", "CHARACTER", "TIMESTAMP", "TIME");

    /** Words that end a FROM list at the same nesting level. */
    private static final Set<String> AFTER_FROM = Set.of(
            "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION", "INTERSECT", "EXCEPT",
            "MINUS", "WINDOW");

    /** Columns with a handful of values (journal type and status): grouping by them makes at most a few groups. */
    static final Set<String> SMALL_DOMAIN = Set.of("type", "status");
    /** Set operations that remove duplicates, and so gather every row of both sides. */
    private static final Set<String> DEDUPLICATING = Set.of("INTERSECT", "EXCEPT", "MINUS");

    static final int MAX_TOKENS = 2_000;
    static final int MAX_DEPTH = 32;
    /** About half of what the validator survived on a 512 KiB stack in a chain of NOT or + (Hazelcast 5.4.0). */
    static final int MAX_OPERATORS = 100;

    private final Set<String> tables;
    private final int maxLength;

    /**
     * @param tables    the published mappings, named as Hazelcast names them
     * @param maxLength the longest statement, in characters, that is read at all
     */
    SqlGuard(Set<String> tables, int maxLength) {
        this.tables = Set.copyOf(tables);
        this.maxLength = maxLength;
    }

    /**
     * A statement the guard let through.
     *
     * @param sql               the statement to send to the engine, rebuilt from the tokens that were checked
     * @param patternParameters the positions (from 0) of the parameters that are LIKE patterns, which
     *                          {@link #checkParameters} must see before the query runs
     */
    record Accepted(String sql, Set<Integer> patternParameters) {

        Accepted {
            patternParameters = Set.copyOf(patternParameters);
        }

        /** Applies the pattern rule to the values of pattern parameters; throws {@link SqlRefusal}. */
        void checkParameters(List<Object> parameters) {
            for (int index : patternParameters) {
                if (index < parameters.size() && parameters.get(index) instanceof String pattern) {
                    checkPattern(pattern, "in parameter " + (index + 1));
                }
            }
        }
    }

    /** The statement to run; throws {@link SqlRefusal} saying why it may not run. */
    Accepted check(String sql) {
        if (sql == null || sql.isBlank()) {
            throw new SqlRefusal("the statement is empty");
        }
        if (sql.length() > maxLength) {
            throw new SqlRefusal("the statement is longer than " + maxLength + " characters");
        }
        List<SqlToken> tokens = SqlTokenizer.tokenize(sql);
        if (!tokens.isEmpty() && tokens.get(tokens.size() - 1).isSymbol(";")) {
            tokens = tokens.subList(0, tokens.size() - 1);
        }
        if (tokens.size() > MAX_TOKENS) {
            throw new SqlRefusal("the statement has more than " + MAX_TOKENS + " tokens");
        }
        if (tokens.isEmpty() || !tokens.get(0).isWord("SELECT")) {
            throw new SqlRefusal("only a SELECT is accepted");
        }
        Walk walk = new Walk(tokens);
        walk.run();
        return new Accepted(tokens.stream().map(SqlToken::sql).collect(Collectors.joining(" ")),
                walk.patternParameters);
    }

    /**
     * Refuses a LIKE pattern with more than one {@code %} before its trailing ones. The engine turns the pattern into
     * a regular expression and matches each row with it; every {@code %} is a {@code .*} that backtracks, so k of them
     * cost about n^k steps on a row of n characters, inside one row where no timeout reaches (a 60-character value
     * and {@code '%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b'} held a thread for minutes). One costs n; trailing ones match the
     * rest of the row at once.
     */
    static void checkPattern(String pattern, String where) {
        int end = pattern.length();
        while (end > 0 && pattern.charAt(end - 1) == '%') {
            end--;
        }
        if (pattern.substring(0, end).chars().filter(c -> c == '%').count() > 1) {
            throw new SqlRefusal("the LIKE pattern " + where + " has more than one % before its end");
        }
    }

    /** One pass over the tokens with a stack of open parentheses, each knowing what it opened. */
    private final class Walk {

        private final List<SqlToken> tokens;
        private final Deque<Frame> frames = new ArrayDeque<>();
        private final Set<Integer> patternParameters = new LinkedHashSet<>();
        private int parameters;
        private int operators;

        Walk(List<SqlToken> tokens) {
            this.tokens = tokens;
            frames.push(new Frame(null));
        }

        void run() {
            for (int i = 0; i < tokens.size(); i++) {
                SqlToken token = tokens.get(i);
                Frame frame = frames.peek();
                if (token.isSymbol(";")) {
                    throw new SqlRefusal("only one statement is accepted");
                }
                if (token.kind() == Kind.WORD && FORBIDDEN.contains(token.upper())) {
                    throw new SqlRefusal(token.upper() + " is not accepted: only a SELECT over "
                            + String.join(" and ", tables.stream().sorted().toList()) + " is");
                }
                if (token.isIdentifier() && HIDDEN.contains(token.text().toLowerCase(Locale.ROOT))) {
                    throw new SqlRefusal(token.text() + " is not published: name the columns of the tables, or *");
                }
                countOperator(token);
                if (token.kind() == Kind.PARAMETER) {
                    parameters++;
                } else if (token.kind() == Kind.WORD && PATTERN_OPERATORS.contains(token.upper())) {
                    patternAt(i + 1);
                } else if (token.isSymbol(",") && frame.function != null && SCALED.contains(frame.function)
                        && !frame.query) {
                    scaleAt(i + 1);
                } else if (token.isSymbol("(")) {
                    open(i);
                } else if (token.isSymbol(")")) {
                    if (frames.size() == 1) {
                        throw new SqlRefusal("a parenthesis at position " + token.position() + " is not opened");
                    }
                    frames.pop();
                } else if (token.isWord("SELECT")) {
                    frame.query = true;
                } else if (token.isWord("JOIN") || token.isSymbol(",") && frame.inFrom) {
                    throw Bound.refusal("a join (JOIN, or tables separated by commas)");
                } else if (token.kind() == Kind.WORD && DEDUPLICATING.contains(token.upper())
                        || token.isWord("UNION") && !(i + 1 < tokens.size() && tokens.get(i + 1).isWord("ALL"))) {
                    throw Bound.refusal(token.upper() + " (UNION ALL is accepted)");
                } else if (token.isWord("DISTINCT") && !(i + 1 < tokens.size() && tokens.get(i + 1).isWord("FROM"))) {
                    throw Bound.refusal("DISTINCT");
                } else if (token.isWord("GROUP")) {
                    frame.inFrom = false;
                    groupByAt(i + 1);
                } else if (token.isWord("FROM") && !fromInArguments(frame) && !distinctFrom(i)) {
                    frame.inFrom = true;
                    tableAt(i + 1);
                } else if (token.kind() == Kind.WORD && AFTER_FROM.contains(token.upper())) {
                    frame.inFrom = false;
                }
            }
            if (frames.size() != 1) {
                throw new SqlRefusal("a parenthesis is not closed");
            }
        }

        private void countOperator(SqlToken token) {
            boolean operator = token.kind() == Kind.SYMBOL && OPERATOR_SYMBOLS.contains(token.text())
                    || token.kind() == Kind.WORD && OPERATOR_WORDS.contains(token.upper());
            if (operator && ++operators > MAX_OPERATORS) {
                throw new SqlRefusal("the statement has more than " + MAX_OPERATORS + " operators");
            }
        }

        /** The list after GROUP at {@code i - 1}: only {@link #SMALL_DOMAIN} columns, each optionally qualified. */
        private void groupByAt(int i) {
            if (i >= tokens.size() || !tokens.get(i).isWord("BY")) {
                return;
            }
            int at = i + 1;
            while (true) {
                if (at + 2 < tokens.size() && tokens.get(at).isIdentifier() && tokens.get(at + 1).isSymbol(".")) {
                    at += 2;
                }
                SqlToken column = at < tokens.size() ? tokens.get(at) : null;
                if (column == null || !column.isIdentifier()
                        || !SMALL_DOMAIN.contains(column.text().toLowerCase(Locale.ROOT))) {
                    throw Bound.refusal("GROUP BY over anything but " + String.join(" and ",
                            SMALL_DOMAIN.stream().sorted().toList()));
                }
                if (at + 1 < tokens.size() && tokens.get(at + 1).isSymbol(",")) {
                    at += 2;
                } else {
                    return;
                }
            }
        }

        /** The pattern of a LIKE at {@code i}: a literal that obeys {@link #checkPattern}, or a parameter. */
        private void patternAt(int i) {
            SqlToken pattern = i < tokens.size() ? tokens.get(i) : null;
            if (pattern != null && pattern.kind() == Kind.STRING) {
                checkPattern(pattern.text(), "at position " + pattern.position());
            } else if (pattern != null && pattern.kind() == Kind.PARAMETER) {
                patternParameters.add(parameters);
            } else {
                throw new SqlRefusal("a LIKE pattern must be a string literal or ? (after position "
                        + tokens.get(i - 1).position() + ")");
            }
            int next = i + 1;
            if (next + 1 < tokens.size() && tokens.get(next).isWord("ESCAPE")
                    && (tokens.get(next + 1).kind() == Kind.STRING || tokens.get(next + 1).kind() == Kind.PARAMETER)) {
                next += 2;
            }
            // What follows must end the pattern: 'a%' || '%b%c' would make the pattern an expression again.
            if (next < tokens.size() && !tokens.get(next).isSymbol(")") && !tokens.get(next).isSymbol(",")
                    && tokens.get(next).kind() != Kind.WORD) {
                throw new SqlRefusal("a LIKE pattern must stand alone, a literal or ? (position "
                        + tokens.get(next).position() + ")");
            }
        }

        /** The scale of ROUND or TRUNCATE, after the comma at {@code i - 1}: a whole number within the bound. */
        private void scaleAt(int i) {
            int at = i < tokens.size() && (tokens.get(i).isSymbol("-") || tokens.get(i).isSymbol("+")) ? i + 1 : i;
            boolean small = at + 1 < tokens.size() && tokens.get(at).kind() == Kind.NUMBER
                    && tokens.get(at).text().matches("[0-9]{1,3}")
                    && Integer.parseInt(tokens.get(at).text()) <= MAX_SCALE
                    && tokens.get(at + 1).isSymbol(")");
            if (!small) {
                throw new SqlRefusal("the scale of ROUND or TRUNCATE must be a whole number from -" + MAX_SCALE
                        + " to " + MAX_SCALE + " written in the statement (after position "
                        + tokens.get(i - 1).position() + ")");
            }
        }

        /** FROM inside {@code EXTRACT(YEAR FROM x)} and the like, where it names no table. */
        private boolean fromInArguments(Frame frame) {
            return frame.function != null && FROM_IN_ARGUMENTS.contains(frame.function) && !frame.query;
        }

        /** FROM of the comparison {@code a IS [NOT] DISTINCT FROM b}. */
        private boolean distinctFrom(int i) {
            return i >= 2 && tokens.get(i - 1).isWord("DISTINCT")
                    && (tokens.get(i - 2).isWord("IS") || tokens.get(i - 2).isWord("NOT"));
        }

        /** Opens a parenthesis: a call of an allowed function, a subquery, or a group. */
        private void open(int i) {
            if (frames.size() > MAX_DEPTH) {
                throw new SqlRefusal("the statement nests deeper than " + MAX_DEPTH + " parentheses");
            }
            SqlToken before = i > 0 ? tokens.get(i - 1) : null;
            String function = null;
            if (before != null && before.kind() == Kind.QUOTED) {
                throw new SqlRefusal("a quoted name cannot be called as a function (position "
                        + before.position() + ")");
            }
            if (before != null && before.kind() == Kind.WORD && i >= 2 && tokens.get(i - 2).isSymbol(".")) {
                throw new SqlRefusal("a qualified name cannot be called as a function (position "
                        + before.position() + ")");
            }
            if (i + 1 < tokens.size() && tokens.get(i + 1).isWord("SELECT")
                    && !(before != null && before.isWord("FROM"))) {
                throw Bound.refusal("a subquery outside FROM (the engine runs it as a join)");
            }
            if (before != null && before.kind() == Kind.WORD) {
                String word = before.upper();
                if (FUNCTIONS.contains(word)) {
                    function = word;
                } else if (!GROUPING_KEYWORDS.contains(word) && !SIZED_TYPES.contains(word)) {
                    throw new SqlRefusal("the function " + before.text() + " is not available: only scalar and "
                            + "aggregate functions are");
                }
            }
            frames.push(new Frame(function));
        }

        /** The token at {@code i} must begin a table reference: a published mapping or a subquery. */
        private void tableAt(int i) {
            if (i >= tokens.size()) {
                throw new SqlRefusal("a table is missing at the end");
            }
            SqlToken table = tokens.get(i);
            if (table.isSymbol("(")) {
                if (i + 1 >= tokens.size() || !tokens.get(i + 1).isWord("SELECT")) {
                    throw new SqlRefusal("only a SELECT may stand in parentheses in place of a table (position "
                            + table.position() + ")");
                }
                return;
            }
            if (!table.isIdentifier() || !tables.contains(table.text())) {
                throw new SqlRefusal("unknown table " + table.text() + ": only "
                        + String.join(" and ", tables.stream().sorted().toList()) + " can be queried");
            }
            if (i + 1 < tokens.size() && (tokens.get(i + 1).isSymbol(".") || tokens.get(i + 1).isSymbol("("))) {
                throw new SqlRefusal("the table " + table.text() + " must be named alone (position "
                        + table.position() + ")");
            }
        }
    }

    /** The memory rule's refusals: what is refused, and why, in one wording. */
    static final class Bound {

        static final String WHY = "it could hold more than one table's rows in a node's memory";

        private Bound() {
        }

        static SqlRefusal refusal(String what) {
            return new SqlRefusal(what + " is not accepted: " + WHY);
        }
    }

    /** An open parenthesis (or the statement itself): the function it calls, if any, and where its clauses are. */
    private static final class Frame {
        final String function;
        boolean query;
        boolean inFrom;

        Frame(String function) {
            this.function = function;
        }
    }
}
