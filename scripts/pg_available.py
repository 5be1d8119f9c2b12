"""Exit 0 when a PostgreSQL server answers at the URL given, 1 otherwise (used by make)."""

import sys

import psycopg


def main() -> int:
    url = sys.argv[1] if len(sys.argv) > 1 else "postgres://postgres@127.0.0.1:5432/postgres"
    try:
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1), connect_timeout=3):
            return 0
    except psycopg.Error:
        return 1


if __name__ == "__main__":
    sys.exit(main())
