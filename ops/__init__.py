"""Operations: health checks and the task-broker beacon."""
