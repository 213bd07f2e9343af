"""Quick chat at tables and rooms: set phrases for everyone, each shown in the
reader's language; free text only in friend rooms, only between friends."""
