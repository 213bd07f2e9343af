"""What every app shares and nothing of ours defines: the refusal vocabulary and the
signed-in request. Imports nothing of ours."""
