from locust import HttpUser, task, constant_throughput

class U(HttpUser):
    wait_time = constant_throughput(100)

    @task
    def get(self):
        self.client.get("/")
