"""A small tokenizer: program data whose names mention tokens, beside two real secrets (issue 20:
redaction must hide secrets, not the program)."""
import enum


class TokenType(enum.Enum):
    NAME = 1
    NUMBER = 2
    OP = 3


class Token:
    def __init__(self, type, text, pos):
        self.type = type
        self.text = text
        self.pos = pos

    def __repr__(self):
        return f"Token({self.type.name}, {self.text!r})"


class Tokenizer:
    def __init__(self, source):
        self.source = source
        self.m_tokens = []
        self.token_count = 0

    def tokenize(self):
        for pos, word in enumerate(self.source.split()):
            token_type = TokenType.NUMBER if word.isdigit() else TokenType.NAME if word.isidentifier() else TokenType.OP
            token = Token(token_type, word, pos)
            self.m_tokens.append(token)
            self.token_count += 1
        return self.m_tokens


def main():
    api_token = "s3cr3t-value"
    auth_header = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    tokenizer = Tokenizer("x = 42 + y")
    tokens = tokenizer.tokenize()
    total = len(tokens)
    print(total, len(api_token), len(auth_header))


main()
