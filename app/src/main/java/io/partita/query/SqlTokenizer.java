package io.partita.query;

import io.partita.query.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a statement into tokens the way Hazelcast's SQL parser (Calcite) would, but refuses everything that the
 * read-only endpoint has no use for and that could make the two readings differ: comments of any kind
 * ({@code --}, {@code //}, block comments and hints), characters outside plain ASCII except inside string literals and
 * quoted identifiers, control characters, backquotes, brackets and braces (JDBC escapes), named parameters,
 * {@code $} in identifiers, numbers run into words, and string literals with a prefix. What passes is a list of
 * words, quoted identifiers, literals, {@code ?} and a small set of operators, which {@link SqlGuard} then checks as a
 * statement and rebuilds from these tokens for the engine.
 *
 * <p>Prefixed literals are refused because the parser reads some of them by other rules: in {@code E'...'} (C-style)
 * a backslash escapes the quote, so {@code E'\''} ends where a standard string would not, and whatever the engine
 * then reads as SQL this class would read as string content. {@code N''}, {@code X''}, {@code _charset''} and
 * {@code U&''} are no use to a read either, so any quote that directly follows a letter, digit or {@code _} is refused
 * rather than each known prefix listed.
 */
final class SqlTokenizer {

    private static final Set<String> TWO_CHAR_SYMBOLS = Set.of("<=", ">=", "<>", "!=", "||");
    private static final String ONE_CHAR_SYMBOLS = "(),.*+-/%=<>;";
    static final int MAX_IDENTIFIER = 128;

    private final String sql;
    private int at;

    private SqlTokenizer(String sql) {
        this.sql = sql;
    }

    static List<SqlToken> tokenize(String sql) {
        return new SqlTokenizer(sql).tokens();
    }

    private List<SqlToken> tokens() {
        List<SqlToken> tokens = new ArrayList<>();
        while (at < sql.length()) {
            char c = sql.charAt(at);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                at++;
            } else if (c == '-' && peek(1) == '-' || c == '/' && (peek(1) == '*' || peek(1) == '/')) {
                throw new SqlRefusal("comments are not accepted (position " + at + ")");
            } else if (isWordStart(c)) {
                tokens.add(word());
            } else if (isDigit(c) || c == '.' && isDigit(peek(1))) {
                tokens.add(number());
            } else if (c == '\'') {
                tokens.add(string());
            } else if (c == '"') {
                tokens.add(quoted());
            } else if (c == '?') {
                tokens.add(new SqlToken(Kind.PARAMETER, "?", at++));
            } else if (at + 1 < sql.length() && TWO_CHAR_SYMBOLS.contains(sql.substring(at, at + 2))) {
                tokens.add(new SqlToken(Kind.SYMBOL, sql.substring(at, at + 2), at));
                at += 2;
            } else if (ONE_CHAR_SYMBOLS.indexOf(c) >= 0) {
                tokens.add(new SqlToken(Kind.SYMBOL, String.valueOf(c), at++));
            } else {
                throw new SqlRefusal("the character " + describe(c) + " at position " + at + " is not accepted");
            }
        }
        return tokens;
    }

    private SqlToken word() {
        int start = at;
        while (at < sql.length() && (isWordStart(sql.charAt(at)) || isDigit(sql.charAt(at)))) {
            at++;
        }
        if (at - start > MAX_IDENTIFIER) {
            throw new SqlRefusal("the identifier at position " + start + " is too long");
        }
        return new SqlToken(Kind.WORD, sql.substring(start, at), start);
    }

    private SqlToken number() {
        int start = at;
        digits();
        if (peek(0) == '.') {
            at++;
            digits();
        }
        if (peek(0) == 'e' || peek(0) == 'E') {
            at++;
            if (peek(0) == '+' || peek(0) == '-') {
                at++;
            }
            if (!isDigit(peek(0))) {
                throw new SqlRefusal("the number at position " + start + " is malformed");
            }
            digits();
        }
        char next = peek(0);
        if (isWordStart(next) || isDigit(next) || next == '.' || next == '\'' || next == '"') {
            throw new SqlRefusal("the number at position " + start + " runs into what follows it");
        }
        return new SqlToken(Kind.NUMBER, sql.substring(start, at), start);
    }

    private void digits() {
        while (isDigit(peek(0))) {
            at++;
        }
    }

    private SqlToken string() {
        int start = at;
        if (start > 0 && isIdentifierPart(sql.charAt(start - 1))) {
            throw new SqlRefusal("a string literal may not have a prefix such as E'', N'', X'' or _utf8'' (position "
                    + (start - 1) + ")");
        }
        at++;
        StringBuilder value = new StringBuilder();
        while (true) {
            if (at >= sql.length()) {
                throw new SqlRefusal("the string literal at position " + start + " is not closed");
            }
            char c = sql.charAt(at);
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                throw new SqlRefusal("control characters are not accepted (position " + at + ")");
            }
            at++;
            if (c == '\'') {
                if (peek(0) != '\'') {
                    return new SqlToken(Kind.STRING, value.toString(), start);
                }
                at++;
            }
            value.append(c);
        }
    }

    private SqlToken quoted() {
        int start = at;
        at++;
        StringBuilder name = new StringBuilder();
        while (true) {
            if (at >= sql.length()) {
                throw new SqlRefusal("the quoted identifier at position " + start + " is not closed");
            }
            char c = sql.charAt(at++);
            if (Character.isISOControl(c)) {
                throw new SqlRefusal("control characters are not accepted (position " + (at - 1) + ")");
            }
            if (c == '"') {
                if (peek(0) == '"') {
                    name.append('"');
                    at++;
                } else {
                    break;
                }
            } else {
                name.append(c);
            }
        }
        if (name.isEmpty() || name.length() > MAX_IDENTIFIER) {
            throw new SqlRefusal("the quoted identifier at position " + start + " is empty or too long");
        }
        return new SqlToken(Kind.QUOTED, name.toString(), start);
    }

    private char peek(int ahead) {
        int index = at + ahead;
        return index < sql.length() ? sql.charAt(index) : '\0';
    }

    private static boolean isWordStart(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_';
    }

    /** A character that continues a word or a number, or one the parser allows in an identifier ({@code $}). */
    private static boolean isIdentifierPart(char c) {
        return isWordStart(c) || isDigit(c) || c == '$';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String describe(char c) {
        return c >= 0x21 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
    }
}
